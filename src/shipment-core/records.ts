import { asc, eq, inArray, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { inJsonArray, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { lots, packageLines, packages, shipments } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { PackageRecord, ShipmentRecord } from "./schemas";

export type ShipmentRow = typeof shipments.$inferSelect;
type PackageRow = typeof packages.$inferSelect;

/**
 * The reads of the shipments matching `where` (in the order given) with their packages and package lines, for one
 * batch: the packages and lines are found by the same `where`, so nothing waits for the shipments' ids.
 */
export function shipmentsReads(
  tdb: TenantDb,
  where: SQL,
  order: SQL[] = [asc(shipments.createdAt), asc(shipments.id)],
) {
  const matching = tdb.db
    .select({ id: shipments.id })
    .from(shipments)
    .where(inTenant(tdb, shipments, where));
  return {
    shipments: tdb.db
      .select()
      .from(shipments)
      .where(inTenant(tdb, shipments, where))
      .orderBy(...order),
    ...contentsReads(tdb, matching),
  };
}

/** What `shipmentsReads` read, as shipment records. */
export function shipmentsFrom(read: {
  shipments: readonly ShipmentRow[];
  packages: readonly PackageRow[];
  lines: readonly PackageLineRead[];
}): ShipmentRecord[] {
  return read.shipments.map((row) =>
    shipmentRecord(
      row,
      read.packages.filter((p) => p.shipmentId === row.id),
      read.lines,
    ),
  );
}

/** Shipments matching `where` (in the order given) with their packages and package lines, in one round trip. */
export async function readShipments(tdb: TenantDb, where: SQL, order?: SQL[]) {
  return shipmentsFrom(await runBatch(tdb, shipmentsReads(tdb, where, order)));
}

/** The packages and package lines of the shipments `ids` names (a list, or a select of their ids). */
function contentsReads(tdb: TenantDb, ids: readonly string[] | SQLWrapper) {
  const among = (column: typeof packages.shipmentId | typeof packageLines.shipmentId) =>
    Array.isArray(ids) ? inJsonArray(column, ids) : inArray(column, ids as SQLWrapper);
  return {
    packages: tdb.db
      .select()
      .from(packages)
      .where(inTenant(tdb, packages, among(packages.shipmentId)))
      .orderBy(asc(packages.packageNo)),
    lines: tdb.db
      .select({
        packageId: packageLines.packageId,
        orderLineId: packageLines.orderLineId,
        productId: packageLines.productId,
        quantity: packageLines.quantity,
        lotNumber: sql<string | null>`${lots.number}`.as("lot_number"),
        serialNumbers: packageLines.serialNumbers,
      })
      .from(packageLines)
      .leftJoin(lots, eq(lots.id, packageLines.lotId))
      .where(inTenant(tdb, packageLines, among(packageLines.shipmentId)))
      .orderBy(asc(packageLines.id)),
  };
}

type PackageLineRead = Parameters<typeof packageRecord>[1][number];

/** The packages and lines of `rows`, joined into shipment records. */
export async function withPackages(tdb: TenantDb, rows: readonly ShipmentRow[]): Promise<ShipmentRecord[]> {
  if (rows.length === 0) return [];
  const read = await runBatch(
    tdb,
    contentsReads(
      tdb,
      rows.map((r) => r.id),
    ),
  );
  return shipmentsFrom({ shipments: rows, ...read });
}

const weightOf = (p: PackageRow) =>
  p.weightMilli === null || p.weightUnit === null
    ? null
    : { value: p.weightMilli / 1000, unit: p.weightUnit };

export function packageRecord(
  p: PackageRow,
  lines: readonly {
    packageId: string;
    orderLineId: string;
    productId: string;
    quantity: number;
    lotNumber: string | null;
    serialNumbers: string[] | null;
  }[],
): PackageRecord {
  return {
    id: p.id,
    packageNo: p.packageNo,
    sscc: p.sscc,
    packageType: p.packageType,
    weight: weightOf(p),
    dimensions: p.dimensions,
    trackingNumber: p.trackingNumber,
    labelFormat: p.labelFormat,
    // Field by field: a planned line also carries its row's id and lot id, which the record does not show.
    lines: lines
      .filter((l) => l.packageId === p.id)
      .map((l) => ({
        orderLineId: l.orderLineId,
        productId: l.productId,
        quantity: l.quantity,
        lotNumber: l.lotNumber,
        serialNumbers: l.serialNumbers,
      })),
  };
}

export function shipmentRecord(
  { tenantId: _t, version: _v, createdBy: _by, ...row }: ShipmentRow,
  rowPackages: readonly PackageRow[],
  lines: Parameters<typeof packageRecord>[1],
): ShipmentRecord {
  return { ...row, packages: rowPackages.map((p) => packageRecord(p, lines)) };
}

export const ofShipment = (id: string) => eq(shipments.id, id);

/**
 * A shipment as order events carry it: its packages without their contents. The order's lines already say
 * what shipped; a serial-tracked order's serials would otherwise be in the event twice, past D1's 1 MB a row.
 */
export const shipmentInOrderEvent = ({ packages, ...shipment }: ShipmentRecord) => ({
  ...shipment,
  packages: packages.map(({ lines: _contents, ...pkg }) => pkg),
});

/** The payload of `shipment.dispatched`: the shipment and every package's tracking number. */
export const dispatchedPayload = (shipment: ShipmentRecord) => ({
  ...shipment,
  trackingNumbers: shipment.packages.flatMap((p) => (p.trackingNumber ? [p.trackingNumber] : [])),
});
