import { type SQL, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { TenantDb } from "../db/client";
import type { Reservation } from "./allocation";
import { addStock, changeLevel, type LedgerContext, type Level, ledgerRow, lotKey } from "./statements";

// The stock side of order changes, as batch statements built on the level statements. Oversell is
// impossible because the stock_levels CHECKs (reserved <= on_hand, on_hand >= 0) fail the whole batch
// of a losing racer.

type StockAmount = Pick<Reservation, "productId" | "locationId" | "quantity"> & { lotId?: string };

/** Gives reserved stock back (an order cancelled, a pick recorded short): reserved down, nothing moves. */
export function release(tdb: TenantDb, s: StockAmount, now: string, guard: SQL) {
  return changeLevel(tdb, s, { reserved: -s.quantity }, now, guard);
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
