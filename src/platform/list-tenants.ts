import { asc, count, desc } from "drizzle-orm";
import type { PlatformDb } from "../db/client";
import { readPage } from "../db/pages";
import { tenants } from "../db/schema/platform";
import { offsetOf } from "../http/pagination";
import { tenantRecord } from "./records";
import type { ListTenantsQuery } from "./schemas";

const sortColumns = { createdAt: tenants.createdAt, name: tenants.name };

export function listTenants(db: PlatformDb, query: ListTenantsQuery) {
  const order = query.sort.direction === "asc" ? asc : desc;
  return readPage(
    db,
    query,
    {
      rows: db
        .select()
        .from(tenants)
        .orderBy(order(sortColumns[query.sort.field]), order(tenants.id))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: db.select({ value: count() }).from(tenants),
    },
    tenantRecord,
  );
}
