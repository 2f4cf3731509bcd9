import type { HonoRequest } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { readCsv } from "./csv-parse";
import { assertUtf8Charset, firstNonUtf8Line, utf8Text } from "./utf8";
import { formatPath, validationError } from "./validation";

// Control characters have no meaning in an identifier, a filter or a name, and some break what they reach
// (a NUL ends an FTS5 query string; a spreadsheet or terminal acts on others). Query parameters may hold none;
// body text may hold tab, line feed and carriage return (descriptions, notes, addresses, CSV files) but no other.
const IN_QUERY = /\p{Cc}/u; // C0, DEL and C1
const IN_BODY = /(?![\t\n\r\u0080-\u009f])\p{Cc}/u; // C0 but tab, LF and CR; DEL
const CONTROL = "must not contain control characters";

// Format characters (Unicode category Cf: bidi overrides and isolates, zero-width spaces and joiners, soft hyphens,
// tags) are invisible: `ABC` and `A\u200bBC` would be two SKUs nobody can tell apart, and U+202E shows a name
// backwards. Identifiers (SKUs, codes, lot and serial numbers, references) may hold none; names may hold ZWNJ and
// ZWJ, which Persian, Indic scripts and emoji sequences need; free text (descriptions, notes, addresses, reasons)
// may hold any, as right-to-left prose needs its marks. A field is known by its key, wherever it is in the body or
// query (`lines[0].lotNumber`, `serialNumbers[3]`, `?sku=`). docs/decisions/security.md.
const IN_IDENTIFIER = /\p{Cf}/u;
const IN_NAME = /(?![\u200c\u200d])\p{Cf}/u;
const IDENTIFIER_KEYS = new Set([
  "sku",
  "code",
  "lotNumber",
  "number",
  "serialNumbers",
  "trackingNumber",
  "reference",
]);
const NAME_KEYS = new Set(["name", "supplier", "category", "unit"]);

/** The format characters a field of this key may not hold, if any rule applies to it. */
const formatRuleOf = (key: string | number | undefined) =>
  typeof key !== "string"
    ? undefined
    : IDENTIFIER_KEYS.has(key)
      ? IN_IDENTIFIER
      : NAME_KEYS.has(key)
        ? IN_NAME
        : undefined;

// A lone UTF-16 surrogate (a JSON `\ud800` escape without its pair) is not a character: stored, it becomes U+FFFD, so
// `TWIN-\ud800` and `TWIN-\udfff` would be two SKUs that read back identical. Refused in every field. UTF-8 text
// (a query, a CSV) cannot hold one; a JSON escape can.
const LONE_SURROGATE = /\p{Cs}/u;

/** What is wrong with `text` as a value of `key`, if anything. */
function problemIn(text: string, key: string | number | undefined, control: RegExp): string | undefined {
  const lone = LONE_SURROGATE.exec(text)?.[0];
  if (lone !== undefined)
    return `must not contain an unpaired surrogate (${codePoint(lone)}), which is not a character`;
  if (control.test(text)) return CONTROL;
  const found = formatRuleOf(key)?.exec(text)?.[0];
  return found === undefined
    ? undefined
    : `must not contain invisible format characters (${codePoint(found)})`;
}

const codePoint = (char: string) =>
  `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;

/** A name as it can be shown in a message: its control characters and lone surrogates written as `\u0000`. */
const visible = (name: string) =>
  name.replace(/[\p{Cc}\p{Cs}]/gu, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** How deep the walk below goes: far past any body or row the API takes (an order's line is 3 levels down). */
const MAX_DEPTH = 32;

type Pending =
  | { value: unknown; path: (string | number)[]; key: string | number | undefined }
  | { problem: string };

/**
 * `lines[0].sku: <problem>` for every string in a parsed JSON value, keys included, that holds a forbidden
 * character, in document order. An array's items are ruled by the array's key (`serialNumbers[3]`). The walk keeps
 * its own stack (a file's row nested 5,000 deep overflowed the call stack, issue #44) and refuses a container
 * nested deeper than MAX_DEPTH, naming where, instead of walking into it.
 */
export function badStrings(root: unknown): string[] {
  const problems: string[] = [];
  const pending: Pending[] = [{ value: root, path: [], key: undefined }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if ("problem" in next) {
      problems.push(next.problem);
      continue;
    }
    const { value, path, key } = next;
    const where = formatPath(path) || "body";
    if (typeof value === "string") {
      const problem = problemIn(value, key, IN_BODY);
      if (problem) problems.push(`${where}: ${problem}`);
    } else if (value !== null && typeof value === "object") {
      if (path.length >= MAX_DEPTH) {
        problems.push(`${where}: must not be nested deeper than ${MAX_DEPTH} levels`);
        continue;
      }
      // Pushed last first, so they are taken in document order.
      const children: Pending[] = Array.isArray(value)
        ? value.map((item, index) => ({ value: item, path: [...path, index], key }))
        : Object.entries(value).map(([name, item]): Pending => {
            const problem = LONE_SURROGATE.test(name)
              ? problemIn(name, undefined, IN_BODY)
              : IN_BODY.test(name)
                ? CONTROL
                : undefined;
            return problem
              ? { problem: `${formatPath([...path, visible(name)])}: ${problem}` }
              : { value: item, path: [...path, name], key: name };
          });
      for (let i = children.length - 1; i >= 0; i--) pending.push(children[i] as Pending);
    }
  }
  return problems;
}

/**
 * A CSV body (a product import): `body: line 3` for a control character on a line a person would look at, then
 * `row 2: sku` for a format character in a cell of a ruled column, as the import names rows.
 */
function badCsv(text: string): string[] {
  const lines = text
    .split(/\r\n|\n|\r/)
    .flatMap((line, index) => (IN_BODY.test(line) ? [`body: line ${index + 1}: ${CONTROL}`] : []));
  if (lines.length > 0 || !IN_IDENTIFIER.test(text)) return lines;
  const [header, ...rows] = readCsv(text);
  const columns = header?.cells.map((column) => column.trim()) ?? [];
  return rows.flatMap(({ cells }, row) =>
    cells.flatMap((cell, i) => {
      const problem = problemIn(cell, columns[i], IN_BODY);
      return problem ? [`row ${row + 1}: ${columns[i]}: ${problem}`] : [];
    }),
  );
}

function bodyProblems(text: string, contentType: string): string[] {
  if (!/json/i.test(contentType)) return badCsv(text);
  // Valid JSON carries a control character only as an escape (a raw one makes it malformed: the validator's 400),
  // and a format character raw or as an escape: a body with neither needs no second parse.
  if (!/\\u|\p{Cf}/u.test(text)) return [];
  try {
    return badStrings(JSON.parse(text));
  } catch {
    return []; // malformed JSON is the validator's 400
  }
}

/**
 * Whether a request's query may hold a control or format character: only as a percent escape, since the URL
 * parser percent-encodes every control and non-ASCII character of a query (and drops tab and newlines). A
 * query without one (`?pageSize=20`) is not parsed again here.
 */
const mayHoldForbidden = (url: string) => {
  const start = url.indexOf("?");
  return start !== -1 && url.includes("%", start);
};

/**
 * The body as text: 415 for a charset other than UTF-8, 400 naming the line of bytes that are not UTF-8 (a decoder
 * would have stored U+FFFD in their place). `req.arrayBuffer()` caches the bytes, from which the route's validator
 * and the idempotency hash read the text.
 */
async function utf8Body(req: HonoRequest, contentType: string): Promise<string> {
  assertUtf8Charset(contentType);
  const bytes = new Uint8Array(await req.arrayBuffer());
  const text = utf8Text(bytes);
  if (text === null) throw validationError([`body: line ${firstNonUtf8Line(bytes)}: is not valid UTF-8`]);
  return text;
}

/**
 * Every control character in a query parameter (name or value) or in a body string (value or key), and every
 * format character in an identifier or name, is a 400 naming where it is. Runs before the routes, so no handler,
 * query or stored row ever sees one.
 */
export const refuseControlCharacters = createMiddleware<AppEnv>(async (c, next) => {
  const query = mayHoldForbidden(c.req.url)
    ? Object.entries(c.req.queries()).flatMap(([name, values]) => {
        if (IN_QUERY.test(name)) return [`${visible(name)}: ${CONTROL}`];
        const problem = values.map((value) => problemIn(value, name, IN_QUERY)).find(Boolean);
        return problem ? [`${name}: ${problem}`] : [];
      })
    : [];
  const contentType = c.req.header("content-type") ?? "";
  const text = c.req.raw.body ? await utf8Body(c.req, contentType) : "";
  const body = text === "" ? [] : bodyProblems(text, contentType);
  const problems = [...query, ...body];
  if (problems.length > 0) throw validationError(problems);
  await next();
});
