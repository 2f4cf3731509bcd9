import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { formatPath, validationError } from "./validation";

// Control characters have no meaning in an identifier, a filter or a name, and some break what they reach
// (a NUL ends an FTS5 query string; a spreadsheet or terminal acts on others). Query parameters may hold none;
// body text may hold tab, line feed and carriage return (descriptions, notes, addresses, CSV files) but no other.
const IN_QUERY = /\p{Cc}/u; // C0, DEL and C1
const IN_BODY = /(?![\t\n\r\u0080-\u009f])\p{Cc}/u; // C0 but tab, LF and CR; DEL
// Valid JSON carries a control character only as an escape (raw ones make it malformed: the validator's 400),
// so a body without such an escape needs no second parse.
const ESCAPED_IN_JSON = /\\u00(?:0[0-8bcef]|1[0-9a-f]|7f)/i;
const MESSAGE = "must not contain control characters";

/** A name as it can be shown in a message: its control characters written as `\u0000`. */
const visible = (name: string) =>
  name.replace(/\p{Cc}/gu, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Paths (`lines[0].sku`) of every string in a parsed JSON value, keys included, that holds a forbidden character. */
function badStrings(value: unknown, path: (string | number)[] = []): string[] {
  if (typeof value === "string") return IN_BODY.test(value) ? [formatPath(path) || "body"] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => badStrings(item, [...path, index]));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) =>
      IN_BODY.test(key) ? [formatPath([...path, visible(key)])] : badStrings(item, [...path, key]),
    );
  }
  return [];
}

/** `body: line 3` for a text body (a CSV import): the lines a person would look at. */
function badLines(text: string): string[] {
  return text
    .split(/\r\n|\n|\r/)
    .flatMap((line, index) => (IN_BODY.test(line) ? [`body: line ${index + 1}`] : []));
}

function bodyProblems(text: string, contentType: string): string[] {
  if (!/json/i.test(contentType)) return badLines(text);
  if (!ESCAPED_IN_JSON.test(text)) return [];
  try {
    return badStrings(JSON.parse(text));
  } catch {
    return []; // malformed JSON is the validator's 400
  }
}

/**
 * Every control character in a query parameter (name or value) or in a body string (value or key) is a 400
 * naming where it is. Runs before the routes, so no handler, query or stored row ever sees one.
 */
export const refuseControlCharacters = createMiddleware<AppEnv>(async (c, next) => {
  const query = Object.entries(c.req.queries()).flatMap(([name, values]) =>
    IN_QUERY.test(name) || values.some((value) => IN_QUERY.test(value)) ? [visible(name)] : [],
  );
  // c.req.text() caches the body: the route's validator and the idempotency hash read the cached text.
  const text = c.req.raw.body ? await c.req.text() : "";
  const body = text === "" ? [] : bodyProblems(text, c.req.header("content-type") ?? "");
  const fields = [...query, ...body];
  if (fields.length > 0) throw validationError(fields.map((field) => `${field}: ${MESSAGE}`));
  await next();
});
