import { count, eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { newestFirst, readPage } from "../db/pages";
import { stockMovements as m } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { between } from "../db/time-range";
import { selectMovements } from "../stock";
import type { MovementsQuery } from "./schemas";

/** `GET /inventory/movements`, newest first. A date-only `to` includes that whole day. */
export function listMovements(tdb: TenantDb, query: MovementsQuery) {
  const filters = [
    query.productId ? eq(m.productId, query.productId) : undefined,
    query.locationId ? eq(m.locationId, query.locationId) : undefined,
    query.warehouseId ? eq(m.warehouseId, query.warehouseId) : undefined,
    query.lotId ? eq(m.lotId, query.lotId) : undefined,
    query.reason ? eq(m.reason, query.reason) : undefined,
    query.reference ? eq(m.referenceId, query.reference) : undefined,
    ...between(m.createdAt, query.from, query.to),
  ];
  return readPage(tdb, query, {
    rows: selectMovements(tdb, ...filters),
    order: newestFirst(m),
    count: tdb.db
      .select({ value: count() })
      .from(m)
      .where(inTenant(tdb, m, ...filters)),
  });
}
