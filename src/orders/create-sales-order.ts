import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { chunks, inJsonArray, onlyRow, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { orderReservations, stockHolds } from "../db/schema/tenant";
import { conflict } from "../http/errors";
import { newOrderRecord, type OrderLineRow, type OrderRow } from "../order-core/records";
import { eventRow } from "../outbox/outbox";
import { lotsOfLine, type Reservation, type ShortLine } from "../stock/allocation";
import { consumeHolds, heldReservations } from "../stock/hold-consumption";
import { selectHolds, toHold } from "../stock/hold-projection";
import { type Drop, lowStockEvents } from "../stock/low-stock-event";
import { planReservations, reservationReads, reserveRacing, reserveStock } from "../stock/reservations";
import { resolveLots } from "../stock/tracked-stock";
import {
  assertOrderable,
  assertPinnedLots,
  assertShippableSerials,
  assertWarehouse,
  lineRows,
  merchantOfLines,
  productsQuery,
  warehouseQuery,
} from "./order-inputs";
import { insertOrder, selectNumber, withOrderNumber } from "./order-writes";
import type { CreateSalesOrderBody } from "./schemas";

// 7 bound values per reservation row.
const RESERVATIONS_PER_INSERT = 14;

const shortMessage = (s: ShortLine) =>
  `lines[${s.index}]: product ${s.productId}${s.lotNumber === null ? "" : ` lot ${s.lotNumber}`} requested ${s.requested}, available ${s.available}${s.lotNumber === null ? "" : " (expired lots are never allocated)"}`;

/**
 * Creates a sales order and reserves stock for every line in ONE batch: all lines or none. A line naming
 * `holdId` takes its reservation from that hold; the others are planned from a fresh read (src/inventory/
 * reservations.ts). If another reservation took the stock meanwhile, the reserved <= on_hand CHECK fails
 * this batch (nothing is written) and the order is planned again.
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
  const holdIds = input.lines.flatMap((l) => (l.holdId ? [l.holdId] : []));
  const unowned: Omit<OrderRow, "number" | "merchantId"> = {
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

  let lotsChecked = false;
  return reserveRacing(async () => {
    const read = await runBatch(tdb, {
      products: productsQuery(tdb, productIds),
      warehouse: warehouseQuery(tdb, input.warehouseId),
      holds: holdIds.length ? selectHolds(tdb, now, inJsonArray(stockHolds.id, holdIds)) : undefined,
      ...reservationReads(tdb, productIds, { warehouseId: input.warehouseId }, now),
    });
    assertOrderable(input.lines, read.products);
    const row = { ...unowned, merchantId: merchantOfLines(input.lines, read.products) };
    assertShippableSerials(input.lines, read.products);
    if (input.warehouseId) assertWarehouse(read.warehouse);
    if (!lotsChecked) {
      await resolveLots(tdb, assertPinnedLots(input.lines, read.products), "take");
      lotsChecked = true;
    }
    const held = heldReservations(input, lines, (read.holds ?? []).map(toHold));
    const plan = planReservations(
      lines
        .filter((_, i) => !input.lines[i]?.holdId)
        .map((l) => ({ lineId: l.id, productId: l.productId, quantity: l.quantity, lotNumber: l.lotNumber })),
      { candidates: read.candidates, expiredHolds: read.expiredHolds.map(toHold) },
    );
    if ("short" in plan) {
      // Indexes of the planned lines, mapped back to the request's.
      const planned = input.lines.flatMap((l, i) => (l.holdId ? [] : [i]));
      throw conflict(
        "Insufficient stock",
        plan.short.map((s) => shortMessage({ ...s, index: planned[s.index] ?? s.index })),
      );
    }
    return writeSalesOrder(tdb, actor, row, lines, plan, held);
  }).catch((error) => {
    throw answerFor(error, {
      stock_holds_status_check: () =>
        conflict("A hold named by a line ended while the order was created; nothing was written"),
    });
  });
}

async function writeSalesOrder(
  tdb: TenantDb,
  actor: Actor,
  row: Omit<OrderRow, "number">,
  lines: readonly OrderLineRow[],
  plan: { reservations: Reservation[]; expiredHolds: Parameters<typeof reserveStock>[2] },
  held: ReturnType<typeof heldReservations>,
) {
  const now = row.createdAt;
  const reservations = [...held.reservations, ...plan.reservations];
  const allocated = lines.map((line) => ({ ...line, lots: lotsOfLine(reservations, line.id) }));
  const record = newOrderRecord(row, allocated, actor);
  const perProduct = new Map<string, Drop[]>();
  for (const r of plan.reservations) {
    perProduct.set(r.productId, [
      ...(perProduct.get(r.productId) ?? []),
      { lotId: r.lotId, units: r.quantity },
    ]);
  }

  const written = await runBatch(tdb, {
    order: insertOrder(tdb, row, allocated, actor),
    // Consumed holds give their stock back first (asserting they are still active), then every line reserves.
    holds: consumeHolds(tdb, held.holds, row.id, now),
    reserve: reserveStock(tdb, reservations, plan.expiredHolds, now),
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
    lowStock: lowStockEvents(
      tdb,
      [...perProduct].map(([productId, drops]) => ({ productId, drops })),
      now,
    ),
    number: selectNumber(tdb, row.id),
  });
  return { ...record, number: onlyRow(written.number).number };
}
