import type { PlatformDb } from "../db/client";
import { readRowsPage } from "../db/pages";
import { tenants } from "../db/schema/platform";
import { tenantRecord } from "./records";
import type { ListTenantsQuery } from "./schemas";

const sortColumns = { createdAt: tenants.createdAt, name: tenants.name };

export function listTenants(db: PlatformDb, query: ListTenantsQuery) {
  return readRowsPage(db, tenants, undefined, query, sortColumns, tenantRecord);
}
