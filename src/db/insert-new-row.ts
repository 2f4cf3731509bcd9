import type { SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { uuidv7 } from "uuidv7";
import { runBatch } from "./batch";
import type { TenantDb } from "./client";
import { asConflict } from "./constraint-errors";

/** What every new row of such a table gets here rather than from the caller. */
type Stamps = "id" | "tenantId" | "createdAt" | "updatedAt";

/** A tenant table whose rows carry an id, their tenant, and when they were created and last changed. */
type StampedTable = SQLiteTable & { $inferInsert: Record<Stamps, string> };

/**
 * Inserts a new row of the handle's tenant: its id (time-ordered), tenant and timestamps stamped here, the
 * rest `fields`. A clash on one of `uniques` is its 409. Answers the row as stored.
 */
export async function insertNewRow<T extends StampedTable>(
  tdb: TenantDb,
  table: T,
  fields: Omit<T["$inferInsert"], Stamps>,
  uniques: Record<string, string>,
  /** A statement that commits with the row (its audit entry), given the row's id. */
  alongside?: (id: string) => SQL,
): Promise<T["$inferSelect"]> {
  const now = new Date().toISOString();
  const stamped = { ...fields, id: uuidv7(), tenantId: tdb.tenantId, createdAt: now, updatedAt: now };
  const {
    inserted: [row],
  } = await runBatch(tdb, {
    inserted: tdb.db
      .insert(table)
      .values(stamped as T["$inferInsert"])
      .returning(),
    alongside: alongside?.(stamped.id),
  }).catch((error) => asConflict(error, uniques));
  return row as T["$inferSelect"];
}
