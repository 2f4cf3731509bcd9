import { count, eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { newestFirst, readPage } from "../db/pages";
import { stockHolds as h } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { holdStatusAt, selectHolds, toHold } from "../stock";
import type { HoldsQuery } from "./schemas";

/** `GET /inventory/holds`, newest first. */
export function listHolds(tdb: TenantDb, query: HoldsQuery) {
  const now = new Date().toISOString();
  const filters = [
    query.productId ? eq(h.productId, query.productId) : undefined,
    query.reference ? eq(h.reference, query.reference) : undefined,
    query.status ? eq(holdStatusAt(now), query.status) : undefined,
  ];
  return readPage(
    tdb,
    query,
    {
      rows: selectHolds(tdb, now, ...filters),
      order: newestFirst(h),
      count: tdb.db
        .select({ value: count() })
        .from(h)
        .where(inTenant(tdb, h, ...filters)),
    },
    toHold,
  );
}
