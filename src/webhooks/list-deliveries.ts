import { desc, eq } from "drizzle-orm";
import { inJsonArray } from "../db/batch";
import type { TenantDb } from "../db/client";
import { readNewestFirst } from "../db/pages";
import { webhookAttempts, webhookDeliveries } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { getSubscription } from "./read-webhook";
import type { ListDeliveriesQuery } from "./schemas";

const RECENT_ATTEMPTS = 10;

/** `GET /webhooks/{id}/deliveries`: newest first, each with its recent attempts. */
export async function listDeliveries(tdb: TenantDb, subscriptionId: string, query: ListDeliveriesQuery) {
  await getSubscription(tdb, subscriptionId);
  const where = inTenant(
    tdb,
    webhookDeliveries,
    eq(webhookDeliveries.subscriptionId, subscriptionId),
    query.status ? eq(webhookDeliveries.status, query.status) : undefined,
  );
  const page = await readNewestFirst(tdb, webhookDeliveries, where, query, (row) => row);
  const attempts = page.items.length
    ? await tdb.db
        .select()
        .from(webhookAttempts)
        .where(
          inTenant(
            tdb,
            webhookAttempts,
            // One parameter for the page's ids: a page of 100 and the tenant would be 101 otherwise.
            inJsonArray(
              webhookAttempts.deliveryId,
              page.items.map((r) => r.id),
            ),
          ),
        )
        .orderBy(desc(webhookAttempts.attempt))
    : [];
  const items = page.items.map(({ tenantId: _t, subscriptionId: _s, replayId, ...delivery }) => ({
    ...delivery,
    replayId: replayId || null,
    attemptLog: attempts
      .filter((a) => a.deliveryId === delivery.id)
      .slice(0, RECENT_ATTEMPTS)
      .map((a) => ({
        attempt: a.attempt,
        statusCode: a.statusCode,
        durationMs: a.durationMs,
        error: a.error,
        at: a.createdAt,
      })),
  }));
  return { ...page, items };
}
