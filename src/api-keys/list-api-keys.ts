import { count, eq } from "drizzle-orm";
import type { PlatformScope } from "../db/client";
import { readPage, sortedBy } from "../db/pages";
import { apiKeys } from "../db/schema/platform";
import { offsetOf } from "../http/pagination";
import { apiKeyRecord } from "./records";
import type { ListApiKeysQuery } from "./schemas";

const sortColumns = { createdAt: apiKeys.createdAt, name: apiKeys.name };

export function listApiKeys(scope: PlatformScope, query: ListApiKeysQuery) {
  const ofTenant = eq(apiKeys.tenantId, scope.tenantId);
  return readPage(
    scope,
    query,
    {
      rows: scope.db
        .select()
        .from(apiKeys)
        .where(ofTenant)
        .orderBy(...sortedBy(sortColumns, apiKeys.id, query.sort))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: scope.db.select({ value: count() }).from(apiKeys).where(ofTenant),
    },
    apiKeyRecord,
  );
}
