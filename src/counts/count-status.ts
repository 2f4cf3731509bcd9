import { eq } from "drizzle-orm";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { inventoryCounts } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError, conflict } from "../http/errors";
import { readCount } from "./read-count";
import type { CountRow } from "./records";

// A cycle count's life: open (snapshot taken, lines being counted) -> submitted (variances frozen) ->
// approved (variances written as adjustments, approve.ts) | cancelled. Every change is one batch guarded
// by the status it expects, so a late scanner batch never lands on a submitted count.

/** 409 naming the count's status and what it cannot be. */
export const refuse = (row: CountRow, action: string) =>
  conflict(`Inventory count ${row.id} is ${row.status}; it cannot be ${action}`);

/** The count's row, 404 outside the tenant. */
export async function loadCount(tdb: TenantDb, id: string) {
  const [row] = await tdb.db
    .select()
    .from(inventoryCounts)
    .where(inTenant(tdb, inventoryCounts, eq(inventoryCounts.id, id)));
  if (!row) throw new AppError("NOT_FOUND", "Inventory count not found");
  return row;
}

/**
 * Moves a count from one of `from` to `to` (submit, cancel), guarded by its status; asking again once it is
 * there answers the count as it is (idempotent), any other status is 409.
 */
export async function moveCount(
  tdb: TenantDb,
  id: string,
  from: readonly CountRow["status"][],
  to: "submitted" | "cancelled",
) {
  const row = await loadCount(tdb, id);
  if (row.status === to) return readCount(tdb, id);
  if (!from.includes(row.status)) throw refuse(row, to);
  const now = new Date().toISOString();
  const stamp = to === "submitted" ? { submittedAt: now } : { cancelledAt: now };
  const written = await runBatch(tdb, {
    moved: tdb.db
      .update(inventoryCounts)
      .set({ status: to, updatedAt: now, ...stamp })
      .where(
        inTenant(tdb, inventoryCounts, eq(inventoryCounts.id, id), eq(inventoryCounts.status, row.status)),
      ),
  });
  if (changesOf(written.moved) === 0) return moveCount(tdb, id, from, to);
  return readCount(tdb, id);
}
