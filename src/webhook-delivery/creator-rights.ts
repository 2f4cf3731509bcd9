import { currentRightsIn } from "../auth/current-rights";
import { grants } from "../auth/scopes";
import type { Bindings } from "../env";
import { type FeedType, readScopeOf } from "../outbox/catalog";
import type { SubscriptionRow } from "./records";

/**
 * Why the subscription may not send an event of `type` now, judged by its creator's current rights as the
 * creator's own requests would be: `stop` when the creator may do nothing any more (left the tenant, key revoked
 * or expired: the subscription stops for good), `skip` when the creator may not read this family of events.
 * Nothing when it may send. Subscriptions older than the creator's record (null) are not capped.
 */
export async function creatorRefusal(
  env: Bindings,
  subscription: SubscriptionRow,
  type: string,
  now: Date,
): Promise<{ stop: string } | { skip: string } | undefined> {
  const { createdByType, createdById } = subscription;
  if (!createdByType || !createdById) return undefined;
  const rights = await currentRightsIn(
    env,
    subscription.tenantId,
    { type: createdByType, id: createdById },
    now,
  );
  if ("lost" in rights) return { stop: `Its creator can no longer act for it: ${rights.lost}` };
  if (type === "webhook.test") return undefined;
  const needed = readScopeOf(type as FeedType);
  if (!grants(rights.scopes, needed))
    return { skip: `its creator may not read these events now (${needed})` };
  return undefined;
}
