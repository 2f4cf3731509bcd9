import { type Hook, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { AppError } from "./errors";

/** `lines[2].quantity` from zod's ["lines", 2, "quantity"]. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((segment, index) =>
      typeof segment === "number" ? `[${segment}]` : `${index === 0 ? "" : "."}${String(segment)}`,
    )
    .join("");
}

const formatNames: Record<string, string> = {
  uuid: "a UUID",
  guid: "a UUID",
  email: "a valid email address",
  url: "an absolute URL",
  datetime: "an ISO 8601 timestamp",
  date: "a date (YYYY-MM-DD)",
  time: "a time (HH:MM:SS)",
  ipv4: "an IPv4 address",
  ipv6: "an IPv6 address",
};

const typeNames: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  date: "a date",
};

const units: Record<string, [string, string]> = {
  string: ["character", "characters"],
  array: ["item", "items"],
  set: ["item", "items"],
  file: ["byte", "bytes"],
};

/** "must have at most 500 items", "must be at most 200 characters". */
const verb = (origin: string) => (origin === "array" || origin === "set" ? "have" : "be");

const listed = (values: readonly unknown[]) => values.map((value) => String(value)).join(", ");

/** "at most 200 characters", "less than 10", "at least 1 item". */
function bound(origin: string, limit: number | bigint, inclusive: boolean | undefined, at: "most" | "least") {
  const unit = units[origin];
  if (unit)
    return `${inclusive === false ? (at === "most" ? "fewer than" : "more than") : `at ${at}`} ${limit} ${Number(limit) === 1 ? unit[0] : unit[1]}`;
  if (inclusive === false) return `${at === "most" ? "less" : "greater"} than ${limit}`;
  return `at ${at} ${limit}`;
}

/**
 * The API's words for every check a schema does not word itself (a schema's own message wins): what the field
 * must be, never zod's defaults ("Too big: expected string to have <=200 characters"). formatIssues puts the
 * field's name in front.
 */
export function messageFor(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      return `must be ${typeNames[issue.expected] ?? issue.expected}`;
    case "too_big":
      return `must ${verb(issue.origin)} ${bound(issue.origin, issue.maximum, issue.inclusive, "most")}`;
    case "too_small":
      if (issue.origin === "string" && Number(issue.minimum) === 1 && issue.inclusive !== false) {
        return "must not be empty";
      }
      return `must ${verb(issue.origin)} ${bound(issue.origin, issue.minimum, issue.inclusive, "least")}`;
    case "invalid_format":
      if (issue.format === "regex")
        return `must match ${(issue as { pattern?: string }).pattern ?? "the expected pattern"}`;
      if (issue.format === "starts_with") return `must start with ${(issue as { prefix?: string }).prefix}`;
      if (issue.format === "ends_with") return `must end with ${(issue as { suffix?: string }).suffix}`;
      return `must be ${formatNames[issue.format] ?? `a valid ${issue.format}`}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${listed(issue.values)}`
        : `must be one of ${listed(issue.values)}`;
    case "invalid_union":
      return "does not match any of the accepted forms";
    case "invalid_key":
      return "has a key that is not accepted";
    case "invalid_element":
      return "has a value that is not accepted";
    case "unrecognized_keys":
      return "unknown field";
    default:
      return "is not accepted";
  }
}

// Global, so every parse (request validation, the CSV import's rows) words its issues the same way.
z.config({ customError: messageFor });

/** One message per failed field, each naming its field (`body` for the whole body): `sku: SKU is required`. */
export function formatIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix = "",
  unknownKey = "unknown field",
): string[] {
  return issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => `${prefix}${formatPath([...issue.path, key])}: ${unknownKey}`);
    }
    const field = formatPath(issue.path);
    return [`${prefix}${field || "body"}: ${issue.message}`];
  });
}

export function validationError(errors: string[]): AppError {
  return new AppError("VALIDATION_FAILED", "Validation failed", { errors });
}

/** The default hook of every route: a failed zod parse becomes one 400 in the envelope. */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) {
    const unknownKey = result.target === "query" ? "unknown query parameter" : undefined;
    throw validationError(formatIssues(result.error.issues, "", unknownKey));
  }
};
