import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { carrierSettings, orders, shipments, warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError, conflict, notFound } from "../http/errors";
import type { Resolver } from "../outbound/url-guard";
import { withPackages } from "../shipment-core/records";
import type { ShipmentRecord } from "../shipment-core/schemas";
import { carrierAdapterFor } from "./carriers/adapter-for";
import { type Address, labelContentType } from "./carriers/carrier";
import { labelKey } from "./label-key";
import type { LabelBody } from "./schemas";

const LABELLABLE = ["packed", "labelled"] as const;

/**
 * What a label needs besides the shipment: the order's number and address, the warehouse parcels leave, and the
 * label service configured for the shipment's carrier code (if any).
 */
async function reads(tdb: TenantDb, id: string) {
  const { db } = tdb;
  const [row] = await db
    .select()
    .from(shipments)
    .where(inTenant(tdb, shipments, eq(shipments.id, id)));
  if (!row) throw notFound("Shipment");
  const read = await runBatch(tdb, {
    order: db
      .select({ number: orders.number, shippingAddress: orders.shippingAddress })
      .from(orders)
      .where(inTenant(tdb, orders, eq(orders.id, row.orderId))),
    warehouse: db
      .select({ name: warehouses.name, address: warehouses.address })
      .from(warehouses)
      .where(inTenant(tdb, warehouses, eq(warehouses.id, row.warehouseId ?? ""))),
    carrier: db
      .select()
      .from(carrierSettings)
      .where(inTenant(tdb, carrierSettings, eq(carrierSettings.code, row.carrier ?? ""))),
  });
  const [shipment] = await withPackages(tdb, [row]);
  return {
    row,
    shipment: shipment as ShipmentRecord,
    order: read.order[0],
    warehouse: read.warehouse[0],
    carrier: read.carrier[0],
  };
}

/** Where labels come from and go: the LABELS bucket, the key that unseals carrier secrets, the URL guard's options. */
export interface LabelContext {
  bucket: R2Bucket;
  secretKey: string;
  guard: { allowLocal: boolean; resolve?: Resolver };
}

/**
 * Buys or records a label for every package through the carrier adapter (the shipment's carrier code's label
 * service when the tenant configured one, else the manual carrier), keeps each in the LABELS bucket
 * and stores the tracking numbers; the shipment becomes `labelled` (labelling again replaces the labels).
 * The labels are put before the batch: a batch that loses to a concurrent change (409) leaves objects the
 * next labelling overwrites, never a shipment pointing at a label that is not there.
 */
export async function labelShipment(
  tdb: TenantDb,
  context: LabelContext,
  id: string,
  body: LabelBody,
): Promise<ShipmentRecord> {
  const { row, shipment, order, warehouse, carrier } = await reads(tdb, id);
  if (!(LABELLABLE as readonly string[]).includes(row.status)) {
    throw conflict(`Shipment ${id} is ${row.status}; only packed or labelled shipments get labels`);
  }
  const given = body.trackingNumbers ?? [];
  const strangers = given.flatMap((t, i) =>
    shipment.packages.some((p) => p.id === t.packageId)
      ? []
      : [`trackingNumbers[${i}].packageId: package ${t.packageId} not found in shipment ${id}`],
  );
  if (strangers.length) throw new AppError("NOT_FOUND", "Package not found", { errors: strangers });

  const address = order?.shippingAddress as Address | null | undefined;
  const adapter = await carrierAdapterFor(carrier, context.secretKey, context.guard);
  const labels = await adapter.labels({
    shipment,
    orderNumber: order?.number ?? "",
    shipTo: address ?? null,
    shipFrom: {
      name: warehouse?.name ?? "",
      address: warehouse?.address ? Object.values(warehouse.address).join(", ") : null,
    },
    trackingNumbers: new Map(given.map((t) => [t.packageId, t.trackingNumber])),
  });
  await Promise.all(
    labels.map((l) =>
      context.bucket.put(labelKey(tdb.tenantId, id, l.packageId, l.format), l.label, {
        httpMetadata: { contentType: labelContentType[l.format] },
      }),
    ),
  );

  const now = new Date().toISOString();
  const unchanged = and(
    inTenant(tdb, shipments, eq(shipments.id, id), eq(shipments.version, row.version)),
    inArray(shipments.status, [...LABELLABLE]),
  ) as SQL;
  const values = JSON.stringify(labels.map((l) => ({ id: l.packageId, t: l.trackingNumber, f: l.format })));
  const written = await runBatch(tdb, {
    packages: sql`update packages set tracking_number = j.value ->> 't', label_format = j.value ->> 'f'
      from json_each(${values}) j
      where packages.tenant_id = ${tdb.tenantId} and packages.shipment_id = ${id} and packages.id = j.value ->> 'id'
        and exists (select 1 from shipments where ${unchanged})`,
    shipment: tdb.db
      .update(shipments)
      .set({ status: "labelled", updatedAt: now, version: sql`${shipments.version} + 1` })
      .where(unchanged),
  });
  if (changesOf(written.shipment) === 0) throw conflict(`Shipment ${id} changed meanwhile; reload it`);
  const byPackage = new Map(labels.map((l) => [l.packageId, l]));
  return {
    ...shipment,
    status: "labelled",
    updatedAt: now,
    packages: shipment.packages.map((p) => ({
      ...p,
      trackingNumber: byPackage.get(p.id)?.trackingNumber ?? p.trackingNumber,
      labelFormat: byPackage.get(p.id)?.format ?? p.labelFormat,
    })),
  };
}
