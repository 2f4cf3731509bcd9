import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { chunks, inJsonArray, onlyRow, runBatch, violated } from "../db/batch";
import type { TenantDb } from "../db/client";
import { locations, lots, orderReservations, stockLevels } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { eventRow } from "../events/outbox";
import { conflict } from "../http/errors";
import { lowStockEvent } from "../inventory/low-stock-event";
import { available, withLot } from "../inventory/projections";
import { today, unexpired } from "../lots/expiry";
import { resolveLots } from "../lots/tracked-stock";
import { allocate, byStockLevel, lotsOfLine, type Reservation, type ShortLine } from "./allocation";
import {
  assertOrderable,
  assertPinnedLots,
  assertWarehouse,
  lineRows,
  productsQuery,
  warehouseQuery,
} from "./order-inputs";
import { insertOrder, selectNumber, withOrderNumber } from "./order-writes";
import { newOrderRecord, type OrderLineRow, type OrderRow } from "./records";
import type { CreateSalesOrderBody } from "./schemas";
import { reserveStock } from "./stock-effects";

// A racer that loses stock between reading and writing re-reads and re-allocates; this bounds the retries.
const MAX_ATTEMPTS = 8;
// 7 bound values per reservation row.
const RESERVATIONS_PER_INSERT = 14;

/**
 * The stock an order may reserve, in the order it is taken: first-expiring-first-out (lots without expiry
 * after those with, then oldest receipt first), then most available. Expired lots are never offered.
 * Stock without a lot has no expiry and no receipt date, so untracked products keep "most available first".
 */
export function candidatesQuery(
  tdb: TenantDb,
  productIds: readonly string[],
  warehouseId: string | undefined,
) {
  return tdb.db
    .select({
      productId: stockLevels.productId,
      locationId: stockLevels.locationId,
      warehouseId: stockLevels.warehouseId,
      lotId: stockLevels.lotId,
      lotNumber: lots.number,
      expiresAt: lots.expiresAt,
      available,
    })
    .from(stockLevels)
    .innerJoin(locations, and(eq(locations.id, stockLevels.locationId), eq(locations.active, true)))
    .leftJoin(lots, withLot(tdb, stockLevels.lotId))
    .where(
      inTenant(
        tdb,
        stockLevels,
        inJsonArray(stockLevels.productId, [...new Set(productIds)]),
        warehouseId ? eq(stockLevels.warehouseId, warehouseId) : undefined,
        gt(stockLevels.onHand, stockLevels.reserved),
        unexpired(lots.expiresAt, today()),
      ),
    )
    .orderBy(
      sql`${lots.expiresAt} is null`,
      asc(lots.expiresAt),
      asc(lots.createdAt),
      desc(available),
      asc(stockLevels.locationId),
    );
}

const shortMessage = (s: ShortLine) =>
  `lines[${s.index}]: product ${s.productId}${s.lotNumber === null ? "" : ` lot ${s.lotNumber}`} requested ${s.requested}, available ${s.available}${s.lotNumber === null ? "" : " (expired lots are never allocated)"}`;

/**
 * Creates a sales order and reserves stock for every line in ONE batch: all lines or none.
 * Allocation is planned from a fresh read; if another order took the stock meanwhile, the
 * reserved <= on_hand CHECK fails this batch (nothing is written) and the order is planned again.
 */
export async function createSalesOrder(tdb: TenantDb, actor: Actor, input: CreateSalesOrderBody) {
  const orderId = uuidv7();
  const now = new Date().toISOString();
  const { rows: lines, totalE4 } = lineRows(
    tdb.tenantId,
    orderId,
    input.lines.map((l) => ({
      productId: l.productId,
      quantity: l.quantity,
      unitPrice: l.price,
      lotNumber: l.lotNumber,
    })),
  );
  const productIds = input.lines.map((l) => l.productId);
  const row: Omit<OrderRow, "number"> = {
    id: orderId,
    tenantId: tdb.tenantId,
    type: "sales",
    status: "pending",
    customerId: input.customerId,
    supplier: null,
    warehouseId: input.warehouseId ?? null,
    shippingAddress: input.shippingAddress,
    trackingNumber: null,
    notes: input.notes ?? null,
    expectedAt: null,
    totalE4,
    version: 1,
    createdBy: actor.actorId,
    createdAt: now,
    updatedAt: now,
  };

  for (let attempt = 1; ; attempt++) {
    const read = await runBatch(tdb, {
      products: productsQuery(tdb, productIds),
      warehouse: warehouseQuery(tdb, input.warehouseId),
      candidates: candidatesQuery(tdb, productIds, input.warehouseId),
    });
    assertOrderable(input.lines, read.products);
    if (input.warehouseId) assertWarehouse(read.warehouse);
    if (attempt === 1) await resolveLots(tdb, assertPinnedLots(input.lines, read.products), "take");
    const plan = allocate(
      lines.map((l) => ({
        lineId: l.id,
        productId: l.productId,
        quantity: l.quantity,
        lotNumber: l.lotNumber,
      })),
      read.candidates,
    );
    if ("short" in plan) throw conflict("Insufficient stock", plan.short.map(shortMessage));
    try {
      return await writeSalesOrder(tdb, actor, row, lines, plan.reservations);
    } catch (error) {
      if (!violated(error, "stock_levels_reserved_check")) throw error;
      if (attempt === MAX_ATTEMPTS) throw conflict("Stock changed while reserving; retry the request");
    }
  }
}

async function writeSalesOrder(
  tdb: TenantDb,
  actor: Actor,
  row: Omit<OrderRow, "number">,
  lines: readonly OrderLineRow[],
  reservations: Reservation[],
) {
  const now = row.createdAt;
  const allocated = lines.map((line) => ({ ...line, lots: lotsOfLine(reservations, line.id) }));
  const record = newOrderRecord(row, allocated, actor);
  const perProduct = new Map<string, number>();
  for (const r of reservations) perProduct.set(r.productId, (perProduct.get(r.productId) ?? 0) + r.quantity);

  const written = await runBatch(tdb, {
    order: insertOrder(tdb, row, allocated, actor),
    reserve: byStockLevel(reservations).map((s) => reserveStock(tdb, s, now)),
    reservations: chunks(reservations, RESERVATIONS_PER_INSERT).map((chunk) =>
      tdb.db.insert(orderReservations).values(
        chunk.map((r) => ({
          tenantId: row.tenantId,
          orderId: row.id,
          lineId: r.lineId,
          productId: r.productId,
          locationId: r.locationId,
          lotId: r.lotId,
          quantity: r.quantity,
        })),
      ),
    ),
    created: eventRow(tdb, "order.created", withOrderNumber(tdb, row.id, record), now),
    lowStock: [...perProduct].map(([productId, drop]) => lowStockEvent(tdb, productId, drop, now)),
    number: selectNumber(tdb, row.id),
  });
  return { ...record, number: onlyRow(written.number).number };
}
