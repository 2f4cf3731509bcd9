import { type SQL, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import type { Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import type { packages } from "../db/schema/tenant";
import { changeLevel, type LedgerContext, ledgerRow } from "../stock/statements";
import { takeSerials } from "../stock/tracked-stock";
import type { ShipmentPlan } from "./plan";
import type { ShipmentRow } from "./records";

type PackageRow = typeof packages.$inferSelect;

/** Where the ledger rows of a shipment point: the shipment (reason `shipment`) or, for the legacy status update, the order. */
export interface ShipmentLedger {
  reason: string;
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
    sql`insert into shipments (id, tenant_id, order_id, warehouse_id, status, carrier, service, dispatched_at, created_by,
        created_at, updated_at)
      select ${shipment.id}, ${t}, ${shipment.orderId}, ${shipment.warehouseId}, ${shipment.status}, ${shipment.carrier},
        ${shipment.service}, ${shipment.dispatchedAt}, ${shipment.createdBy}, ${now}, ${now}
      where ${guard}`,
    sql`insert into packages (id, tenant_id, shipment_id, package_no, sscc, package_type, weight_milli, weight_unit,
        dimensions, tracking_number, created_at)
      select value ->> 'id', ${t}, ${shipment.id}, value ->> 'packageNo', value ->> 'sscc', value ->> 'packageType',
        value ->> 'weightMilli', value ->> 'weightUnit', value -> 'dimensions', value ->> 'trackingNumber', ${now}
      from json_each(${json(rows)}) where ${guard}`,
    sql`insert into package_lines (id, tenant_id, package_id, shipment_id, order_line_id, product_id, lot_id, quantity,
        serial_numbers)
      select value ->> 'id', ${t}, value ->> 'packageId', ${shipment.id}, value ->> 'orderLineId', value ->> 'productId',
        value ->> 'lotId', value ->> 'quantity', value -> 'serialNumbers'
      from json_each(${json(plan.packageLines)}) where ${guard}`,
    sql`insert into shipment_stock (tenant_id, shipment_id, order_line_id, product_id, location_id, lot_id, quantity)
      select ${t}, ${shipment.id}, value ->> 'orderLineId', value ->> 'productId', value ->> 'locationId',
        value ->> 'lotId', value ->> 'quantity'
      from json_each(${json(plan.stock)}) where ${guard}`,
    ...plan.stock.flatMap((s) => {
      const level = { productId: s.productId, locationId: s.locationId, lotId: s.lotId || undefined };
      const ledger: LedgerContext = {
        ...ctx.ledger,
        notes: null,
        ...actor,
        now,
        serialNumbers: s.serials.length ? s.serials : null,
      };
      const reservation = sql`tenant_id = ${t} and order_id = ${shipment.orderId} and line_id = ${s.orderLineId}
        and location_id = ${s.locationId} and lot_id = ${s.lotId}`;
      return [
        changeLevel(tdb, level, { onHand: -s.quantity, reserved: -s.quantity }, now, guard),
        ledgerRow(tdb, uuidv7(), level, -s.quantity, ledger, guard),
        ...(s.serials.length
          ? [takeSerials(tdb, s.productId, s.locationId, s.serials, now, undefined, guard)]
          : []),
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
