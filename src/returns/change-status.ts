import { eq, sql } from "drizzle-orm";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { returns } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { eventRow } from "../outbox/outbox";
import { type LoadedReturn, loadReturn, returnAtVersion, returnRecord } from "./records";
import type { UpdateReturnStatusBody } from "./schemas";

type Requested = UpdateReturnStatusBody["status"];

/** When each requested status is stamped. */
const stamp = {
  authorized: "authorizedAt",
  rejected: "rejectedAt",
  cancelled: "cancelledAt",
  closed: "closedAt",
} as const satisfies Record<Requested, string>;

/**
 * Why `to` is not allowed from where the return is, or undefined when it is. requested -> authorized |
 * rejected | cancelled; authorized -> cancelled (nothing received yet) | closed (something received: the rest
 * will not come); received -> closed. `received` itself is reached by receipts only.
 */
function refusal({ row, lines }: LoadedReturn, to: Requested): string | undefined {
  const received = lines.some((l) => l.receivedQuantity > 0);
  const from = row.status;
  const allowed =
    (from === "requested" && to !== "closed") ||
    (from === "authorized" && to === "cancelled" && !received) ||
    (from === "authorized" && to === "closed" && received) ||
    (from === "received" && to === "closed");
  if (allowed) return undefined;
  if (from === "authorized" && to === "cancelled") return `units were received already; close it instead`;
  if (from === "authorized" && to === "closed") return `nothing was received yet; cancel it instead`;
  const next: Record<string, string> = {
    requested: "authorized, rejected or cancelled",
    authorized: "cancelled (before any receipt) or closed (after one)",
    received: "closed",
  };
  return next[from] ? `it can move to ${next[from]}` : `${from} is final`;
}

/**
 * Moves a return to the status asked for (one batch guarded by the version read: of two concurrent changes
 * one has an effect, the other is a 409). Closing it writes `return.closed`; a closed, rejected or cancelled
 * return claims only what it received, so the rest of its order lines may be returned again.
 */
export async function changeReturnStatus(tdb: TenantDb, id: string, body: UpdateReturnStatusBody) {
  const loaded = await loadReturn(tdb, id);
  const { row } = loaded;
  const why = refusal(loaded, body.status);
  if (why) throw conflict(`Return ${row.number} is ${row.status}; ${why}`);
  const now = new Date().toISOString();
  const after = { ...row, status: body.status, [stamp[body.status]]: now, updatedAt: now };
  const record = returnRecord(after, loaded.lines, loaded.receipts);
  const written = await runBatch(tdb, {
    event:
      body.status === "closed"
        ? eventRow(tdb, "return.closed", record, now, { onlyIf: returnAtVersion(tdb, id, row.version) })
        : undefined,
    version: tdb.db
      .update(returns)
      .set({
        status: body.status,
        [stamp[body.status]]: now,
        updatedAt: now,
        version: sql`${returns.version} + 1`,
      })
      .where(inTenant(tdb, returns, eq(returns.id, id), eq(returns.version, row.version))),
  });
  if (changesOf(written.version) === 0) {
    throw conflict(`Return ${row.number} was changed by another request; reload it and retry`);
  }
  return record;
}
