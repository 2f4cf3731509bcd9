import { currentRightsIn } from "../auth/current-rights";
import { covers, type Rights } from "../auth/rights";
import { grants } from "../auth/scopes";
import type { Bindings } from "../env";
import { type FeedType, readScopeOf } from "../outbox/catalog";
import type { SubscriptionRow } from "./records";

/**
 * Why a subscription's creator holding `rights` can no longer act for it at all: it may do nothing any more, or it
 * now acts for one merchant only and the subscription reaches beyond that merchant (a tenant-wide subscription of
 * an admin since restricted, which would go on sending other merchants' events).
 */
export function lostFor(
  subscription: Pick<SubscriptionRow, "merchantId">,
  rights: Rights,
): string | undefined {
  if ("lost" in rights) return rights.lost;
  if (!covers(rights, { scopes: [], merchantId: subscription.merchantId })) {
    return `it now acts for merchant ${rights.merchantId} only, and the subscription reaches beyond it`;
  }
  return undefined;
}

/**
 * Why the subscription may not send an event of `type` now, judged by its creator's current rights as the
 * creator's own requests would be: `stop` when the creator can no longer act for it (`lostFor`: the subscription
 * stops, saying why), `skip` when the creator may not read this family of events.
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
  const lost = lostFor(subscription, rights);
  if (lost !== undefined || "lost" in rights)
    return { stop: `Its creator can no longer act for it: ${lost}` };
  if (type === "webhook.test") return undefined;
  const needed = readScopeOf(type as FeedType);
  if (!grants(rights.scopes, needed))
    return { skip: `its creator may not read these events now (${needed})` };
  return undefined;
}
