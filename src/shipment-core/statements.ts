import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "../auth/principal";
import type { Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { insertSelect } from "../db/insert-select";
import { packageLines, packages, shipmentStock, shipments } from "../db/schema/tenant";
import { type LedgerReason, ship, statementsOf } from "../stock";

import type { ShipmentPlan } from "./plan";
import type { ShipmentRow } from "./records";

type PackageRow = typeof packages.$inferSelect;

/** Where the ledger rows of a shipment point: the shipment (reason `shipment`) or, for the legacy status update, the order. */
export interface ShipmentLedger {
  reason: LedgerReason;
  referenceType: string;
  referenceId: string;
}

/**
 * The statements of a new shipment, every one guarded by `guard` (the order's version): its rows, and its
 * stock leaving where the plan takes it (on hand and reserved down, a ledger row, serials out of stock, the
 * reservation rows shrinking) and the order lines' shipped quantities growing (their CHECK refuses more than
 * was ordered).
 */
export function shipmentStatements(
  tdb: TenantDb,
  shipment: ShipmentRow,
  rows: readonly PackageRow[],
  plan: ShipmentPlan,
  ctx: { actor: Actor; now: string; ledger: ShipmentLedger },
  guard: SQL,
): Statement[] {
  const { now, actor } = ctx;
  const t = tdb.tenantId;
  const json = (value: unknown) => JSON.stringify(value);
  return [
    insertSelect(
      shipments,
      {
        id: shipment.id,
        tenantId: t,
        orderId: shipment.orderId,
        warehouseId: shipment.warehouseId,
        status: shipment.status,
        carrier: shipment.carrier,
        service: shipment.service,
        dispatchedAt: shipment.dispatchedAt,
        createdBy: shipment.createdBy,
        createdAt: now,
        updatedAt: now,
      },
      sql`where ${guard}`,
    ),
    insertSelect(
      packages,
      {
        id: sql`value ->> 'id'`,
        tenantId: t,
        shipmentId: shipment.id,
        packageNo: sql`value ->> 'packageNo'`,
        sscc: sql`value ->> 'sscc'`,
        packageType: sql`value ->> 'packageType'`,
        weightMilli: sql`value ->> 'weightMilli'`,
        weightUnit: sql`value ->> 'weightUnit'`,
        dimensions: sql`value -> 'dimensions'`,
        trackingNumber: sql`value ->> 'trackingNumber'`,
        createdAt: now,
      },
      sql`from json_each(${json(rows)}) where ${guard}`,
    ),
    insertSelect(
      packageLines,
      {
        id: sql`value ->> 'id'`,
        tenantId: t,
        packageId: sql`value ->> 'packageId'`,
        shipmentId: shipment.id,
        orderLineId: sql`value ->> 'orderLineId'`,
        productId: sql`value ->> 'productId'`,
        lotId: sql`value ->> 'lotId'`,
        quantity: sql`value ->> 'quantity'`,
        serialNumbers: sql`value -> 'serialNumbers'`,
      },
      sql`from json_each(${json(plan.packageLines)}) where ${guard}`,
    ),
    insertSelect(
      shipmentStock,
      {
        tenantId: t,
        shipmentId: shipment.id,
        orderLineId: sql`value ->> 'orderLineId'`,
        productId: sql`value ->> 'productId'`,
        locationId: sql`value ->> 'locationId'`,
        lotId: sql`value ->> 'lotId'`,
        quantity: sql`value ->> 'quantity'`,
      },
      sql`from json_each(${json(plan.stock)}) where ${guard}`,
    ),
    ...plan.stock.flatMap((s) => {
      const line = {
        productId: s.productId,
        locationId: s.locationId,
        lotId: s.lotId || undefined,
        quantity: s.quantity,
        serialNumbers: s.serials,
      };
      const reservation = sql`tenant_id = ${t} and order_id = ${shipment.orderId} and line_id = ${s.orderLineId}
        and location_id = ${s.locationId} and lot_id = ${s.lotId}`;
      return [
        ...statementsOf(ship(tdb, line, { ...ctx.ledger, notes: null, ...actor, now }, { guard })),
        sql`delete from order_reservations where ${reservation} and quantity = ${s.quantity} and ${guard}`,
        sql`update order_reservations set quantity = quantity - ${s.quantity} where ${reservation} and ${guard}`,
      ];
    }),
    ...[...plan.shipped].map(
      ([lineId, quantity]) => sql`update order_lines set shipped_quantity = shipped_quantity + ${quantity}
        where tenant_id = ${t} and id = ${lineId} and ${guard}`,
    ),
  ];
}
