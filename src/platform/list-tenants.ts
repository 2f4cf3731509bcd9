import { count } from "drizzle-orm";
import type { PlatformDb } from "../db/client";
import { readPage, sortedBy } from "../db/pages";
import { tenants } from "../db/schema/platform";
import { offsetOf } from "../http/pagination";
import { tenantRecord } from "./records";
import type { ListTenantsQuery } from "./schemas";

const sortColumns = { createdAt: tenants.createdAt, name: tenants.name };

export function listTenants(db: PlatformDb, query: ListTenantsQuery) {
  return readPage(
    db,
    query,
    {
      rows: db
        .select()
        .from(tenants)
        .orderBy(...sortedBy(sortColumns, tenants.id, query.sort))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: db.select({ value: count() }).from(tenants),
    },
    tenantRecord,
  );
}
