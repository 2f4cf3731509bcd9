import { count, eq, gte } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { newestFirst, readPage } from "../db/pages";
import { shipments } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { withPackages } from "../shipment-core/records";
import type { ListShipmentsQuery } from "./schemas";

/** Shipments newest first, filtered by status, carrier and creation time, with their packages. */
export async function listShipments(tdb: TenantDb, query: ListShipmentsQuery) {
  const where = inTenant(
    tdb,
    shipments,
    query.status ? eq(shipments.status, query.status) : undefined,
    query.carrier ? eq(shipments.carrier, query.carrier) : undefined,
    query.since ? gte(shipments.createdAt, new Date(query.since).toISOString()) : undefined,
  );
  const page = await readPage(tdb, query, {
    rows: tdb.db.select().from(shipments).where(where),
    order: newestFirst(shipments),
    count: tdb.db.select({ value: count() }).from(shipments).where(where),
  });
  return { ...page, items: await withPackages(tdb, page.items) };
}
