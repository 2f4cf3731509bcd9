import type { TenantDb } from "../db/client";
import { readNewestFirst } from "../db/pages";
import { webhookSubscriptions } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { PageQuery } from "../http/pagination";
import { webhookRecord } from "./records";

/** `GET /webhooks`: the tenant's subscriptions, newest first. */
export function listSubscriptions(tdb: TenantDb, query: PageQuery) {
  return readNewestFirst(
    tdb,
    webhookSubscriptions,
    inTenant(tdb, webhookSubscriptions),
    query,
    webhookRecord,
  );
}
