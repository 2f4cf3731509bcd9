import { or } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { readRowsPage } from "../db/pages";
import { merchants } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { contains } from "../db/text-match";
import { merchantRecord } from "./records";
import type { ListMerchantsQuery } from "./schemas";

const sortColumns = { code: merchants.code, name: merchants.name, createdAt: merchants.createdAt };

export function listMerchants(tdb: TenantDb, query: ListMerchantsQuery) {
  const where = inTenant(
    tdb,
    merchants,
    query.search
      ? or(contains(merchants.code, query.search), contains(merchants.name, query.search))
      : undefined,
  );
  return readRowsPage(tdb, merchants, where, query, sortColumns, merchantRecord);
}
