import { eq } from "drizzle-orm";
import type { PlatformScope } from "../db/client";
import { readRowsPage } from "../db/pages";
import { apiKeys } from "../db/schema/platform";
import { apiKeyRecord } from "./records";
import type { ListApiKeysQuery } from "./schemas";

const sortColumns = { createdAt: apiKeys.createdAt, name: apiKeys.name };

export function listApiKeys(scope: PlatformScope, query: ListApiKeysQuery) {
  const ofTenant = eq(apiKeys.tenantId, scope.tenantId);
  return readRowsPage(scope, apiKeys, ofTenant, query, sortColumns, apiKeyRecord);
}
