import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { chunks, inJsonArray, onlyRow, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { compiledInsert } from "../db/compiled";
import { answerFor } from "../db/constraint-errors";
import { orderReservations, stockHolds } from "../db/schema/tenant";
import { conflict } from "../http/errors";
import { validationError } from "../http/validation";
import { MAX_ORDER_TOTAL } from "../money";
import { newOrderRecord, type OrderLineRow, type OrderRow, totalE4Of } from "../order-core/records";
import {
  consumeHolds,
  type Drop,
  heldReservations,
  lotsOfLine,
  lowStockEvents,
  packagingRows,
  packedProducts,
  planReservations,
  type Reservation,
  reservationReads,
  reserve,
  reserveRacing,
  resolveLots,
  type ShortLine,
  selectHolds,
  sizesOf,
  toBaseUnits,
  toHold,
  withComponents,
} from "../stock";

import { assertComponentsOrderable, type ExpandedLines, expandKits, kitComponentsOf } from "./kit-lines";
import {
  assertOrderable,
  assertPinnedLots,
  assertShippableSerials,
  assertWarehouse,
  merchantOfLines,
  productsQuery,
  warehouseQuery,
} from "./order-inputs";
import { insertOrder, orderCreatedEvent, selectNumber } from "./order-writes";
import type { CreateSalesOrderBody } from "./schemas";

// 7 bound values per reservation row.
const RESERVATIONS_PER_INSERT = 14;

const insertReservations = compiledInsert(orderReservations);

/** A short line named by its request line: a product, or a kit and its short component, each by SKU (and id). */
function shortMessage(
  s: ShortLine,
  line: OrderLineRow,
  expanded: ExpandedLines,
  sku: ReadonlyMap<string, string>,
) {
  const { index, kitId } = expanded.requestOf.get(line.id) ?? { index: s.index };
  const product = `${sku.get(s.productId)} (${s.productId})`;
  const what = kitId ? `kit ${sku.get(kitId)} component ${product}` : `product ${product}`;
  return `lines[${index}]: ${what}${s.lotNumber === null ? "" : ` lot ${s.lotNumber}`} requested ${s.requested}, available ${s.available}${s.lotNumber === null ? "" : " (expired lots are never allocated)"}`;
}

/**
 * Creates a sales order and reserves stock for every line in ONE batch: all lines or none. A line naming
 * `holdId` takes its reservation from that hold; the others are planned from a fresh read (src/inventory/
 * reservations.ts). If another reservation took the stock meanwhile, the reserved <= on_hand CHECK fails
 * this batch (nothing is written) and the order is planned again. `beforeWrite` is awaited before the write
 * batch: the reads may have run alongside the API key's lookup, the write never does (src/auth/key-views.ts).
 */
export async function createSalesOrder(
  tdb: TenantDb,
  actor: Actor,
  body: CreateSalesOrderBody,
  beforeWrite: () => Promise<void>,
) {
  const orderId = uuidv7();
  const now = new Date().toISOString();
  const productIds = body.lines.map((l) => l.productId);
  const packed = packedProducts(body.lines);
  const holdIds = body.lines.flatMap((l) => (l.holdId ? [l.holdId] : []));
  // The kits' components are read in the batch that reads the stock they reserve (one round trip for both).
  const stockedIds = withComponents(tdb, productIds);

  let lotsChecked = false;
  return reserveRacing(async () => {
    const read = await runBatch(tdb, {
      packagings: packed.length ? packagingRows(tdb, packed) : undefined,
      kits: kitComponentsOf(tdb, productIds),
      products: productsQuery(tdb, stockedIds),
      warehouse: warehouseQuery(tdb, body.warehouseId),
      holds: holdIds.length ? selectHolds(tdb, now, inJsonArray(stockHolds.id, holdIds)) : undefined,
      ...reservationReads(tdb, stockedIds, { warehouseId: body.warehouseId }, now),
    });
    const input = {
      ...body,
      lines: toBaseUnits(body.lines, sizesOf(read.packagings ?? []), (i) => `lines[${i}].`),
    };
    const expanded = expandKits(tdb.tenantId, orderId, input.lines, read.kits);
    const lines = expanded.rows;
    const totalE4 = totalE4Of([...lines, ...expanded.kitLines]);
    if (totalE4 === undefined)
      throw validationError([`lines: the order total must be at most ${MAX_ORDER_TOTAL}`]);
    assertOrderable(input.lines, read.products);
    const row = {
      ...unownedOrder(tdb, actor, input, { id: orderId, totalE4, kitLines: expanded.kitLines, now }),
      merchantId: merchantOfLines(input.lines, read.products),
    };
    assertComponentsOrderable(expanded, read.products);
    assertShippableSerials(lines, read.products);
    if (input.warehouseId) assertWarehouse(read.warehouse);
    if (!lotsChecked) {
      await resolveLots(tdb, assertPinnedLots(input.lines, read.products), "take");
      lotsChecked = true;
    }
    const sku = new Map(read.products.map((p) => [p.id, p.sku]));
    const held = heldReservations(input, expanded.byRequest, (read.holds ?? []).map(toHold), sku);
    const heldLines = new Set(held.reservations.map((r) => r.lineId));
    const planned = lines.filter((l) => !heldLines.has(l.id));
    const plan = planReservations(
      planned.map((l) => ({
        lineId: l.id,
        productId: l.productId,
        quantity: l.quantity,
        lotNumber: l.lotNumber,
      })),
      { candidates: read.candidates, expiredHolds: read.expiredHolds.map(toHold) },
    );
    if ("short" in plan) {
      throw conflict(
        "Insufficient stock",
        plan.short.map((s) => shortMessage(s, planned[s.index] as OrderLineRow, expanded, sku)),
      );
    }
    await beforeWrite();
    return writeSalesOrder(tdb, actor, row, lines, plan, held);
  }).catch((error) => {
    throw answerFor(error, {
      stock_holds_status_check: () =>
        conflict("A hold named by a line ended while the order was created; nothing was written"),
    });
  });
}

/** The order's row before its merchant is known (from its lines' products). */
function unownedOrder(
  tdb: TenantDb,
  actor: Actor,
  input: Pick<
    CreateSalesOrderBody,
    "customerId" | "customerName" | "warehouseId" | "shippingAddress" | "notes"
  >,
  order: { id: string; totalE4: number; kitLines: ExpandedLines["kitLines"]; now: string },
): Omit<OrderRow, "number" | "merchantId"> {
  return {
    id: order.id,
    tenantId: tdb.tenantId,
    type: "sales",
    status: "pending",
    customerId: input.customerId,
    customerName: input.customerName ?? null,
    supplier: null,
    warehouseId: input.warehouseId ?? null,
    shippingAddress: input.shippingAddress,
    trackingNumber: null,
    notes: input.notes ?? null,
    expectedAt: null,
    totalE4: order.totalE4,
    version: 1,
    createdBy: actor.actorId,
    kitLines: order.kitLines.length ? order.kitLines : null,
    createdAt: order.now,
    updatedAt: order.now,
  };
}

async function writeSalesOrder(
  tdb: TenantDb,
  actor: Actor,
  row: Omit<OrderRow, "number">,
  lines: readonly OrderLineRow[],
  plan: { reservations: Reservation[]; expiredHolds: Parameters<typeof reserve>[2] },
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
    reserve: reserve(tdb, reservations, plan.expiredHolds, now),
    reservations: chunks(reservations, RESERVATIONS_PER_INSERT).map((chunk) =>
      insertReservations(
        tdb,
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
    created: orderCreatedEvent(tdb, row.id, record, now),
    lowStock: lowStockEvents(
      tdb,
      [...perProduct].map(([productId, drops]) => ({ productId, drops })),
      now,
    ),
    number: selectNumber(tdb, row.id),
  });
  return { ...record, number: onlyRow(written.number).number };
}
