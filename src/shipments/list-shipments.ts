import { count, desc, eq, gte } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { shipments } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { offsetOf, paged } from "../http/pagination";
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
  const read = await runBatch(tdb, {
    rows: tdb.db
      .select()
      .from(shipments)
      .where(where)
      .orderBy(desc(shipments.createdAt), desc(shipments.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    count: tdb.db.select({ value: count() }).from(shipments).where(where),
  });
  return paged(await withPackages(tdb, read.rows), read.count[0]?.value ?? 0, query);
}
