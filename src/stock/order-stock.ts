import { type SQL, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import type { TenantDb } from "../db/client";
import type { Reservation } from "./allocation";
import { addStock, changeLevel, type LedgerContext, type Level, ledgerRow, lotKey } from "./statements";

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

/**
 * Units arriving from outside (an order's receipt, a return's goods): the level created on first use, and their
 * ledger row. Every receipt goes through here.
 */
export function receiveUnits(
  tdb: TenantDb,
  level: Level & { warehouseId: string },
  quantity: number,
  ledger: LedgerContext,
  guard: SQL,
) {
  return [
    addStock(tdb, level, quantity, ledger.now, guard),
    ledgerRow(tdb, uuidv7(), level, quantity, ledger, guard),
  ] as const;
}

/** An order's received stock, with a `received` ledger row. */
export function receiveStock(
  tdb: TenantDb,
  s: StockAmount & { warehouseId: string },
  ctx: MovementContext,
  guard: SQL,
  serialNumbers: readonly string[] | null = null,
) {
  return receiveUnits(tdb, s, s.quantity, ledgerContext(ctx, "received", serialNumbers), guard);
}

/**
 * Units arriving at a level already reserved for an order line: a pick bringing them to the packing
 * location, a cancelled shipment putting them back there. On hand and reserved go up (the level is created on
 * first use), with a ledger row, and the order's reservation row at the level grows by them.
 */
export function addReservedStock(
  tdb: TenantDb,
  l: Level & { warehouseId: string },
  line: { orderId: string; lineId: string },
  quantity: number,
  ledger: LedgerContext,
  guard: SQL,
) {
  return [
    addStock(tdb, l, quantity, ledger.now, guard),
    changeLevel(tdb, l, { reserved: quantity }, ledger.now, guard),
    ledgerRow(tdb, uuidv7(), l, quantity, ledger, guard),
    sql`insert into order_reservations (tenant_id, order_id, line_id, product_id, location_id, lot_id, quantity)
      select ${tdb.tenantId}, ${line.orderId}, ${line.lineId}, ${l.productId}, ${l.locationId}, ${lotKey(l)}, ${quantity}
      where ${guard}
      on conflict (tenant_id, order_id, line_id, location_id, lot_id) do update set quantity = quantity + excluded.quantity`,
  ];
}
