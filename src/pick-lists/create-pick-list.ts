import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { inJsonArray, jsonChunks, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import {
  locations,
  lots,
  orderLines,
  orderReservations,
  orderStatusHistory,
  orders,
  pickListLines,
  pickLists,
  products,
  warehouses,
} from "../db/schema/tenant";
import { inTenant, inTenantAmong } from "../db/tenant-scope";
import { AppError, conflict } from "../http/errors";
import { validationError } from "../http/validation";
import { historyEntry, orderRecord } from "../order-core/records";
import { eventRows } from "../outbox/outbox";
import type { PickListRecord } from "../record-schemas/pick-list";
import { createPackingLocation, PACKING_CODE } from "../stock";
import { kitOf, type PickListLineRow, pickListRecord } from "./records";
import { type CreatePickListBody, MAX_LINES_PER_PICK_LIST } from "./schemas";

// Orders a pick list takes: confirmed ones, and picking ones whose earlier pick list was cancelled or left
// units in their bins (their lines then name only what is still in a bin).
const PICKABLE = ["confirmed", "picking"];

/** What the creation reads, in one round trip. */
function reads(tdb: TenantDb, input: CreatePickListBody) {
  const { db } = tdb;
  const ids = input.orderIds;
  return runBatch(tdb, {
    warehouse: db
      .select({ id: warehouses.id })
      .from(warehouses)
      .where(inTenant(tdb, warehouses, eq(warehouses.id, input.warehouseId))),
    packing: db
      .select({ id: locations.id, type: locations.type, code: locations.code })
      .from(locations)
      .where(
        inTenant(
          tdb,
          locations,
          eq(locations.warehouseId, input.warehouseId),
          sql`(${locations.type} = 'packing' or ${locations.code} = ${PACKING_CODE})`,
        ),
      ),
    orders: db
      .select()
      .from(orders)
      .where(inTenantAmong(tdb, orders, ids)),
    lines: db
      .select()
      .from(orderLines)
      .where(inTenant(tdb, orderLines, inJsonArray(orderLines.orderId, ids))),
    history: db
      .select()
      .from(orderStatusHistory)
      .where(inTenant(tdb, orderStatusHistory, inJsonArray(orderStatusHistory.orderId, ids)))
      .orderBy(asc(orderStatusHistory.createdAt), asc(orderStatusHistory.id)),
    reservations: db
      .select({
        orderId: orderReservations.orderId,
        orderLineId: orderReservations.lineId,
        productId: orderReservations.productId,
        sku: products.sku,
        locationId: orderReservations.locationId,
        locationCode: locations.code,
        locationType: locations.type,
        pickSequence: locations.pickSequence,
        warehouseId: locations.warehouseId,
        lotId: orderReservations.lotId,
        lotNumber: lots.number,
        quantity: orderReservations.quantity,
      })
      .from(orderReservations)
      .innerJoin(locations, eq(locations.id, orderReservations.locationId))
      .innerJoin(products, eq(products.id, orderReservations.productId))
      .leftJoin(lots, eq(lots.id, orderReservations.lotId))
      .where(inTenant(tdb, orderReservations, inJsonArray(orderReservations.orderId, ids))),
    busy: db
      .selectDistinct({ orderId: pickListLines.orderId, pickListId: pickListLines.pickListId })
      .from(pickListLines)
      .innerJoin(pickLists, eq(pickLists.id, pickListLines.pickListId))
      .where(
        and(
          inTenant(tdb, pickListLines, inJsonArray(pickListLines.orderId, ids)),
          inArray(pickLists.status, ["open", "in_progress"]),
          ne(pickListLines.status, "cancelled"),
        ),
      ),
  });
}

type Reservation = Awaited<ReturnType<typeof reads>>["reservations"][number];

/** Walking order: the location's pickSequence (none last), its code, then the product, then the orders' order. */
function walkingOrder(position: Map<string, number>) {
  return (a: Reservation, b: Reservation) =>
    (a.pickSequence ?? Number.POSITIVE_INFINITY) - (b.pickSequence ?? Number.POSITIVE_INFINITY) ||
    a.locationCode.localeCompare(b.locationCode) ||
    a.sku.localeCompare(b.sku) ||
    (position.get(a.orderId) ?? 0) - (position.get(b.orderId) ?? 0) ||
    a.orderLineId.localeCompare(b.orderLineId);
}

/**
 * Creates a pick list for 1-200 sales orders whose stock is reserved in one warehouse: one line per
 * reservation still in a bin (FEFO lots and lot pins as allocated), in walking order; the orders move to
 * `picking`. One batch: the orders' versions are bumped from the versions read, and the pick list's own
 * insert is the assertion that every bump happened (a status its CHECK refuses otherwise), so a
 * concurrent change of any order (a cancellation, another pick list) makes the whole batch fail: 409.
 */
export async function createPickList(
  tdb: TenantDb,
  actor: Actor,
  input: CreatePickListBody,
): Promise<PickListRecord> {
  const read = await reads(tdb, input);
  if (read.warehouse.length === 0) {
    throw new AppError("NOT_FOUND", "Warehouse not found", {
      errors: [`warehouseId: warehouse ${input.warehouseId} not found`],
    });
  }
  const byId = new Map(read.orders.map((o) => [o.id, o]));
  const missing = input.orderIds.flatMap((id, i) =>
    byId.has(id) ? [] : [`orderIds[${i}]: order ${id} not found`],
  );
  if (missing.length) throw new AppError("NOT_FOUND", "Order not found", { errors: missing });

  const busy = new Map(read.busy.map((b) => [b.orderId, b.pickListId]));
  const problems: string[] = [];
  for (const [i, id] of input.orderIds.entries()) {
    const order = byId.get(id) as (typeof read.orders)[number];
    const held = read.reservations.filter((r) => r.orderId === id);
    const name = `${order.type} order ${order.number}`;
    if (order.type !== "sales") problems.push(`orderIds[${i}]: ${name} is not a sales order`);
    else if (!PICKABLE.includes(order.status))
      problems.push(
        `orderIds[${i}]: ${name} is ${order.status}; only confirmed or picking orders are picked`,
      );
    else if (busy.has(id)) problems.push(`orderIds[${i}]: ${name} is on pick list ${busy.get(id)} already`);
    else if (held.some((r) => r.warehouseId !== input.warehouseId))
      problems.push(`orderIds[${i}]: ${name} holds stock in another warehouse`);
    else if (!held.some((r) => r.locationType !== "packing"))
      problems.push(`orderIds[${i}]: ${name} has nothing left to pick`);
  }
  const packing = read.packing.find((l) => l.type === "packing");
  if (!packing && read.packing.some((l) => l.code === PACKING_CODE)) {
    problems.push(
      `warehouseId: the warehouse has no packing location and its code ${PACKING_CODE} is taken: create a location of type packing`,
    );
  }
  if (problems.length) throw conflict(problems[0] as string, problems);

  const position = new Map(input.orderIds.map((id, i) => [id, i]));
  const toPick = read.reservations.filter((r) => r.locationType !== "packing").sort(walkingOrder(position));
  if (toPick.length > MAX_LINES_PER_PICK_LIST) {
    throw validationError([
      `orderIds: these orders need ${toPick.length} pick lines, at most ${MAX_LINES_PER_PICK_LIST} fit one pick list: pick them in smaller waves`,
    ]);
  }

  const now = new Date().toISOString();
  const id = uuidv7();
  const orderLineById = new Map(read.lines.map((l) => [l.id, l]));
  const lines: PickListLineRow[] = toPick.map((r, i) => ({
    id: uuidv7(),
    lineNo: i + 1,
    orderId: r.orderId,
    orderLineId: r.orderLineId,
    productId: r.productId,
    sku: r.sku,
    locationId: r.locationId,
    locationCode: r.locationCode,
    lotId: r.lotId,
    lotNumber: r.lotNumber,
    quantity: r.quantity,
    pickedQuantity: 0,
    shortQuantity: 0,
    status: "open",
    kit: kitOf(byId.get(r.orderId)?.kitLines ?? null, orderLineById.get(r.orderLineId)?.kitLineId ?? null),
  }));
  const row = {
    id,
    tenantId: tdb.tenantId,
    warehouseId: input.warehouseId,
    status: "open" as const,
    orderIds: input.orderIds,
    createdBy: actor.actorId,
    completedAt: null,
    cancelledAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const record = pickListRecord(row, lines);

  const versions = JSON.stringify(input.orderIds.map((o) => ({ id: o, v: byId.get(o)?.version })));
  const moving = read.orders.filter((o) => o.status !== "picking");
  const events = [
    { type: "pick_list.created" as const, payload: record },
    ...moving.map((o) => ({
      type: "order.status_changed" as const,
      payload: orderRecord(
        { ...o, status: "picking", version: o.version + 1, updatedAt: now },
        read.lines.filter((l) => l.orderId === o.id),
        [...read.history.filter((h) => h.orderId === o.id), historyEntry(o, o.status, "picking", actor, now)],
      ),
    })),
  ];

  await runBatch(tdb, {
    packing: packing ? undefined : createPackingLocation(tdb, input.warehouseId, now),
    orders: sql`update orders set status = 'picking', version = version + 1, updated_at = ${now}
      from json_each(${versions}) j
      where orders.tenant_id = ${tdb.tenantId} and orders.id = j.value ->> 'id' and orders.version = j.value ->> 'v'`,
    // The assertion: this batch's update bumped every order from the version read (changes() counts the rows
    // the previous statement changed; a version another request bumped first is not one of them), or the
    // status is one the CHECK refuses.
    list: sql`insert into pick_lists (id, tenant_id, warehouse_id, status, order_ids, created_by, created_at, updated_at)
      select ${id}, ${tdb.tenantId}, ${input.warehouseId},
        case when changes() = ${input.orderIds.length} then 'open' else 'changed meanwhile' end,
        ${JSON.stringify(input.orderIds)}, ${actor.actorId}, ${now}, ${now}`,
    lines: jsonChunks(lines, 500).map(
      (
        chunk,
      ) => sql`insert into pick_list_lines (id, tenant_id, pick_list_id, line_no, order_id, order_line_id,
          product_id, location_id, lot_id, quantity)
        select j.value ->> 'id', ${tdb.tenantId}, ${id}, j.value ->> 'lineNo', j.value ->> 'orderId',
          j.value ->> 'orderLineId', j.value ->> 'productId', j.value ->> 'locationId', j.value ->> 'lotId',
          j.value ->> 'quantity'
        from json_each(${JSON.stringify(chunk)}) j`,
    ),
    history: moving.length
      ? sql`insert into order_status_history (id, tenant_id, order_id, from_status, to_status, actor_type, actor_id, created_at)
          select j.value ->> 'id', ${tdb.tenantId}, j.value ->> 'orderId', j.value ->> 'from', 'picking',
            ${actor.actorType}, ${actor.actorId}, ${now}
          from json_each(${JSON.stringify(moving.map((o) => ({ id: uuidv7(), orderId: o.id, from: o.status })))}) j`
      : undefined,
    events: eventRows(tdb, events, now),
  }).catch((error) => {
    throw answerFor(error, {
      pick_lists_status_check: () =>
        conflict("An order changed while the pick list was made; retry the request"),
    });
  });
  return record;
}
