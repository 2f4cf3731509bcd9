import { count, desc, eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { readPage } from "../db/pages";
import { stockHolds as h } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { offsetOf } from "../http/pagination";
import { holdStatusAt, selectHolds, toHold } from "../stock/hold-projection";
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
      rows: selectHolds(tdb, now, ...filters)
        .orderBy(desc(h.createdAt), desc(h.id))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: tdb.db
        .select({ value: count() })
        .from(h)
        .where(inTenant(tdb, h, ...filters)),
    },
    toHold,
  );
}
