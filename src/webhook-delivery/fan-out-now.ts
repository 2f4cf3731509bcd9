import type { TenantDb } from "../db/client";
import type { Bindings } from "../env";
import { log } from "../observability/log";
import { handOffEvents } from "../outbox/hand-off";
import { DELIVERIES_ATTEMPTED_NOW, deliverNow } from "./deliver-now";
import { fanOutEvent } from "./fan-out";

// Events a request fans out itself; more (a bulk write) go through the queue, whose consumer fans them out.
export const EVENTS_FANNED_OUT_NOW = 10;

/**
 * What becomes of a request's committed events (run from its `waitUntil`): the first EVENTS_FANNED_OUT_NOW are
 * fanned out here, on the shard they were committed on, and their first DELIVERIES_ATTEMPTED_NOW deliveries
 * attempted at once (deliver-now.ts), so a receiver hears of the change milliseconds after it committed instead
 * of after two queue batch waits. The rest, and any event whose fan-out here throws, are handed to the queue as
 * before. An event this never reaches (the isolate died) stays unprocessed, and the dispatch sweep hands it off.
 */
export async function fanOutNow(
  env: Bindings,
  tdb: Pick<TenantDb, "tenantId" | "shard">,
  eventIds: readonly string[],
): Promise<void> {
  let attemptsLeft = DELIVERIES_ATTEMPTED_NOW;
  const failed: string[] = [];
  const fanOut = async (eventId: string) => {
    try {
      await fanOutEvent(env, tdb.tenantId, eventId, tdb.shard, (env, tenantId, deliveryIds) => {
        const attemptsNow = Math.min(attemptsLeft, deliveryIds.length);
        attemptsLeft -= attemptsNow;
        return deliverNow(env, tenantId, deliveryIds, attemptsNow);
      });
    } catch (error) {
      log("error", "webhook fan-out from the request failed; handed to the queue", {
        tenantId: tdb.tenantId,
        eventId,
        error: String(error),
      });
      failed.push(eventId);
    }
  };
  await Promise.all([
    handOffEvents(env, tdb, eventIds.slice(EVENTS_FANNED_OUT_NOW)),
    ...eventIds.slice(0, EVENTS_FANNED_OUT_NOW).map(fanOut),
  ]);
  await handOffEvents(env, tdb, failed);
}
