import { and, eq, inArray, ne, type SQL } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { locations, pickListLines, pickLists, products, shipments } from "../db/schema/tenant";
import { inTenant, inTenantAmong } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { historyInsert } from "../order-core/history";
import { type LoadedOrder, readOrder } from "../order-core/read-order";
import { historyEntry, orderRecord } from "../order-core/records";
import { atVersion, bumpVersion } from "../order-core/version-guard";
import type { EventType } from "../outbox/catalog";
import { eventRow } from "../outbox/outbox";
import { inBaseUnits, serialsChanged, serialsWhereMany } from "../stock";

import { planShipment, type ShipmentPlan } from "./plan";
import { shipmentInOrderEvent, shipmentRecord, shipmentsFrom, shipmentsReads } from "./records";
import type { CreateShipmentBody, ShipmentInUnits, ShipmentRecord } from "./schemas";
import { takeSsccs } from "./ssccs";
import { shipmentStatements } from "./statements";

/** Orders a shipment may be made for: confirmed, being picked or packed, or already partly shipped. */
const SHIPPABLE = ["confirmed", "picking", "packed", "partially_shipped"];

/** The order's status once `plan` ships: `shipped` when no line is left open, else `partially_shipped`. */
export function statusAfterShipping(order: LoadedOrder, plan: ShipmentPlan) {
  const open = order.lines.some(
    (l) => l.quantity - l.shippedQuantity - l.backorderedQuantity - (plan.shipped.get(l.id) ?? 0) > 0,
  );
  return open ? "partially_shipped" : "shipped";
}

/**
 * What planning needs to read besides the order, in one round trip: packing locations, tracking, active pick
 * lists, and the order's shipments so far (its events carry them); then the serials named, if any.
 */
async function planContext(tdb: TenantDb, order: LoadedOrder, body: ShipmentInUnits) {
  const { db } = tdb;
  const read = await runBatch(tdb, {
    packing: db
      .select({ id: locations.id })
      .from(locations)
      .where(
        inTenantAmong(
          tdb,
          locations,
          order.reservations.map((r) => r.locationId),
          eq(locations.type, "packing"),
        ),
      ),
    products: db
      .select({ id: products.id, tracking: products.tracking })
      .from(products)
      .where(
        inTenantAmong(
          tdb,
          products,
          order.lines.map((l) => l.productId),
        ),
      ),
    picking: db
      .select({ id: pickListLines.id })
      .from(pickListLines)
      .innerJoin(pickLists, eq(pickLists.id, pickListLines.pickListId))
      .where(
        and(
          inTenant(
            tdb,
            pickListLines,
            eq(pickListLines.orderId, order.row.id),
            eq(pickListLines.status, "open"),
          ),
          inArray(pickLists.status, ["open", "in_progress"]),
        ),
      )
      .limit(1),
    ...shipmentsReads(
      tdb,
      and(eq(shipments.orderId, order.row.id), ne(shipments.status, "cancelled")) as SQL,
    ),
  });
  const units = body.packages.flatMap((p) =>
    p.lines.flatMap((l) => {
      const productId = order.lines.find((line) => line.id === l.orderLineId)?.productId ?? "";
      return (l.serialNumbers ?? []).map((serial) => ({ productId, serial }));
    }),
  );
  const where = units.length ? await serialsWhereMany(tdb, units) : new Map<string, string>();
  const tracking = new Map(read.products.map((p) => [p.id, p.tracking]));
  return {
    packingLocations: new Set(read.packing.map((l) => l.id)),
    serialLocation: (productId: string, serial: string) => where.get(`${productId}|${serial}`),
    tracking: (productId: string) => tracking.get(productId),
    onActivePickList: read.picking.length > 0,
    earlier: shipmentsFrom(read),
  };
}

/**
 * Ships part or all of a sales order as one shipment (`packed`) of packages, each with an SSCC. The units
 * leave where the order holds them (ledger reason `shipment`, reference the shipment) and the lines'
 * `shippedQuantity` grow; the order becomes `partially_shipped` or `shipped`. One batch guarded by the
 * order's version: of concurrent shipments of one order one commits, the others change nothing (409), and
 * the lines' CHECK (shipped + backordered <= quantity) refuses shipping more than was ordered.
 */
/**
 * The request with each package line's packs in base units (against its order line's product); a line not on
 * the order keeps its quantity, for the plan to refuse by name.
 */
async function inUnits(
  tdb: TenantDb,
  order: LoadedOrder,
  request: CreateShipmentBody,
): Promise<ShipmentInUnits> {
  const productOf = (orderLineId: string) => order.lines.find((l) => l.id === orderLineId)?.productId;
  const lines = request.packages.flatMap((p, i) =>
    p.lines.map((line, j) => ({
      line,
      at: `packages[${i}].lines[${j}].`,
      productId: productOf(line.orderLineId),
    })),
  );
  const known = lines.filter((l) => l.productId !== undefined);
  const converted = await inBaseUnits(
    tdb,
    known.map((l) => ({ ...l.line, productId: l.productId as string })),
    (k) => known[k]?.at ?? "",
  );
  const quantityOf = new Map(known.map((l, k) => [l.line, converted[k]?.quantity ?? 0]));
  return {
    ...request,
    packages: request.packages.map((p) => ({
      ...p,
      lines: p.lines.map((line) => ({ ...line, quantity: quantityOf.get(line) ?? line.quantity ?? 0 })),
    })),
  };
}

export async function createShipment(
  tdb: TenantDb,
  actor: Actor,
  orderId: string,
  request: CreateShipmentBody,
): Promise<ShipmentRecord> {
  const order = await readOrder(tdb, orderId);
  const { row } = order;
  if (row.type !== "sales")
    throw conflict(`Order ${row.number} is a purchase order: it is received, not shipped`);
  if (!SHIPPABLE.includes(row.status)) {
    throw conflict(
      `Order ${row.number} is ${row.status}; shipments are made for confirmed, picking, packed or partially shipped orders`,
    );
  }
  const body = await inUnits(tdb, order, request);
  const packageIds = body.packages.map(() => uuidv7());
  const context = await planContext(tdb, order, body);
  const plan = planShipment(order, packageIds, body, context);
  const ssccs = await takeSsccs(tdb, body.packages.length);
  const now = new Date().toISOString();
  const shipment = {
    id: uuidv7(),
    tenantId: tdb.tenantId,
    orderId,
    warehouseId: row.warehouseId,
    status: "packed" as const,
    carrier: body.carrier ?? null,
    service: body.service ?? null,
    dispatchedAt: null,
    cancelledAt: null,
    version: 1,
    createdBy: actor.actorId,
    createdAt: now,
    updatedAt: now,
  };
  const packageRows = body.packages.map((p, i) => ({
    id: packageIds[i] as string,
    tenantId: tdb.tenantId,
    shipmentId: shipment.id,
    packageNo: i + 1,
    sscc: ssccs[i] as string,
    packageType: p.packageType ?? null,
    weightMilli: Math.round(p.weight.value * 1000),
    weightUnit: p.weight.unit,
    dimensions: p.dimensions ?? null,
    trackingNumber: null,
    labelFormat: null,
    createdAt: now,
  }));
  const lotNumbers = new Map(
    order.lines.flatMap((l) => (l.lots ?? []).map((lot) => [lot.lotId, lot.lotNumber] as const)),
  );
  const record = shipmentRecord(
    shipment,
    packageRows,
    plan.packageLines.map((l) => ({ ...l, lotNumber: lotNumbers.get(l.lotId) ?? null })),
  );

  const to = statusAfterShipping(order, plan);
  const history =
    to === row.status ? order.history : [...order.history, historyEntry(row, row.status, to, actor, now)];
  const lines = order.lines.map((l) => ({
    ...l,
    shippedQuantity: l.shippedQuantity + (plan.shipped.get(l.id) ?? 0),
  }));
  const payload = {
    ...orderRecord({ ...row, status: to, version: row.version + 1, updatedAt: now }, lines, history),
    shipments: [...context.earlier, record].map(shipmentInOrderEvent),
  };
  const events: EventType[] = [
    ...(to === row.status ? [] : (["order.status_changed"] as const)),
    to === "shipped" ? "order.shipped" : "order.partially_shipped",
  ];
  const guard = atVersion(tdb, orderId, row.version);
  const written = await runBatch(tdb, {
    shipment: shipmentStatements(
      tdb,
      shipment,
      packageRows,
      plan,
      {
        actor,
        now,
        ledger: { reason: "shipment", referenceType: "shipment", referenceId: shipment.id },
      },
      guard,
    ),
    history: to === row.status ? undefined : historyInsert(tdb, orderId, row.status, to, actor, now, guard),
    events: events.map((type) => eventRow(tdb, type, payload, now, { onlyIf: guard })),
    version: bumpVersion(tdb, orderId, row.version, { status: to, updatedAt: now }),
  }).catch((error) => {
    const stockChanged = () =>
      conflict(`The stock of order ${row.number} changed meanwhile; reload it and retry`);
    throw answerFor(error, {
      order_lines_shipped_check: () => conflict(`Order ${row.number} has less left to ship now; reload it`),
      stock_levels_reserved_check: stockChanged,
      stock_levels_on_hand_check: stockChanged,
      order_reservations_quantity_check: stockChanged,
      serial_numbers_on_hand_check: serialsChanged,
    });
  });
  if (changesOf(written.version) === 0) {
    throw conflict(`Order ${row.number} was changed by another request; reload it and retry`);
  }
  return record;
}
