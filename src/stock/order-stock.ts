import type { SQL } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import type { TenantDb } from "../db/client";
import type { Reservation } from "./allocation";
import { addStock, changeLevel, type LedgerContext, ledgerRow } from "./statements";

// The stock side of order changes, as batch statements built on the level statements. Oversell is
// impossible because the stock_levels CHECKs (reserved <= on_hand, on_hand >= 0) fail the whole batch
// of a losing racer.

/** The order a change belongs to, who made it, and when. */
export type MovementContext = Actor & { orderId: string; now: string };

type StockAmount = Pick<Reservation, "productId" | "locationId" | "quantity"> & { lotId?: string };

const ledgerContext = (
  ctx: MovementContext,
  reason: string,
  serialNumbers: readonly string[] | null = null,
): LedgerContext => ({
  reason,
  referenceType: "order",
  referenceId: ctx.orderId,
  notes: null,
  actorType: ctx.actorType,
  actorId: ctx.actorId,
  requestId: ctx.requestId,
  now: ctx.now,
  serialNumbers,
});

/** Gives held stock back (cancellation). */
export function releaseReservation(tdb: TenantDb, s: StockAmount, now: string, guard: SQL) {
  return changeLevel(tdb, s, { reserved: -s.quantity }, now, guard);
}

/** Adds received stock (creating the level on first receipt), with a `received` ledger row. */
export function receiveStock(
  tdb: TenantDb,
  s: StockAmount & { warehouseId: string },
  ctx: MovementContext,
  guard: SQL,
  serialNumbers: readonly string[] | null = null,
) {
  return [
    addStock(tdb, s, s.quantity, ctx.now, guard),
    ledgerRow(tdb, uuidv7(), s, s.quantity, ledgerContext(ctx, "received", serialNumbers), guard),
  ] as const;
}
