import { asc, count, desc, eq } from "drizzle-orm";
import type { PlatformScope } from "../db/client";
import { readPage } from "../db/pages";
import { apiKeys } from "../db/schema/platform";
import { offsetOf } from "../http/pagination";
import { apiKeyRecord } from "./records";
import type { ListApiKeysQuery } from "./schemas";

const sortColumns = { createdAt: apiKeys.createdAt, name: apiKeys.name };

export function listApiKeys(scope: PlatformScope, query: ListApiKeysQuery) {
  const order = query.sort.direction === "asc" ? asc : desc;
  const ofTenant = eq(apiKeys.tenantId, scope.tenantId);
  return readPage(
    scope,
    query,
    {
      rows: scope.db
        .select()
        .from(apiKeys)
        .where(ofTenant)
        .orderBy(order(sortColumns[query.sort.field]), order(apiKeys.id))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: scope.db.select({ value: count() }).from(apiKeys).where(ofTenant),
    },
    apiKeyRecord,
  );
}
