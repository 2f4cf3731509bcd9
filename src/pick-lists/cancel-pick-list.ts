import { eq, exists, inArray, sql } from "drizzle-orm";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { pickListLines, pickLists } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { eventRow } from "../outbox/outbox";
import { pickListRecord, readPickList, selectPickListLines } from "./records";

const ACTIVE = ["open", "in_progress"] as const;

/**
 * Cancels an open or in-progress pick list: its open lines are cancelled and nothing is released (the
 * reservations stay with the orders; units already picked stay at the packing location, reserved for
 * their orders). The orders stay `picking` and may go on a new pick list. Every statement is guarded by
 * "the list is still active" and the list's own update comes last, so a cancellation racing a pick or
 * another cancellation has one effect.
 */
export async function cancelPickList(tdb: TenantDb, id: string) {
  const { row, lines } = await readPickList(tdb, id);
  const refused = (status: string) =>
    conflict(`Pick list ${id} is ${status}; only open or in-progress pick lists can be cancelled`);
  if (!(ACTIVE as readonly string[]).includes(row.status)) throw refused(row.status);
  const now = new Date().toISOString();
  const after = { ...row, status: "cancelled" as const, cancelledAt: now, updatedAt: now };
  const stillActive = inTenant(tdb, pickLists, eq(pickLists.id, id), inArray(pickLists.status, ACTIVE));
  const guard = exists(tdb.db.select({ one: sql`1` }).from(pickLists).where(stillActive));
  const record = pickListRecord(
    after,
    lines.map((l) => (l.status === "open" ? { ...l, status: "cancelled" as const } : l)),
  );
  const written = await runBatch(tdb, {
    lines: tdb.db
      .update(pickListLines)
      .set({ status: "cancelled" })
      .where(
        inTenant(
          tdb,
          pickListLines,
          eq(pickListLines.pickListId, id),
          eq(pickListLines.status, "open"),
          guard,
        ),
      ),
    event: eventRow(tdb, "pick_list.cancelled", record, now, { onlyIf: guard }),
    list: tdb.db
      .update(pickLists)
      .set({ status: "cancelled", cancelledAt: now, updatedAt: now })
      .where(stillActive),
    linesAfter: selectPickListLines(tdb, id),
  });
  if (changesOf(written.list) === 0) throw refused("no longer open");
  return pickListRecord(after, written.linesAfter);
}
