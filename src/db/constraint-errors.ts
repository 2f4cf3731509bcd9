import { conflict } from "../http/errors";
import { violated } from "./batch";

/**
 * Turns a UNIQUE violation of one of `uniques` (constraint text as SQLite reports it, e.g.
 * "products.tenant_id, products.sku") into a 409 with its message; anything else is rethrown.
 */
export function asConflict(error: unknown, uniques: Record<string, string>): never {
  for (const [constraint, message] of Object.entries(uniques)) {
    if (violated(error, `UNIQUE constraint failed: ${constraint}`)) throw conflict(message);
  }
  throw error;
}
