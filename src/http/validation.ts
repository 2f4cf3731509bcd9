import type { Hook, z } from "@hono/zod-openapi";
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

/** One message per failed field, each naming its field: `sku: SKU is required`. */
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
    return [field || prefix ? `${prefix}${field || "body"}: ${issue.message}` : issue.message];
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
