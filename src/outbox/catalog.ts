import type { Scope } from "../auth/scopes";

/** README, "Webhooks": every event a subscription can name (`*` subscribes to all). */
export const eventTypes = [
  "order.created",
  "order.status_changed",
  "order.shipped",
  "order.delivered",
  "order.cancelled",
  "order.backordered",
  "order.partially_shipped",
  "shipment.dispatched",
  "shipment.cancelled",
  "return.created",
  "return.received",
  "return.closed",
  "pick_list.created",
  "pick_list.completed",
  "pick_list.cancelled",
  "purchase_order.received",
  "inventory.adjusted",
  "inventory.transferred",
  "inventory.low_stock",
  "inventory.count_approved",
  "inventory.hold_created",
  "inventory.hold_released",
  "product.created",
  "product.updated",
  "product.deleted",
  "job.succeeded",
  "job.failed",
  "invoice.created",
  "invoice.voided",
  "webhook.test",
] as const;

export type EventType = (typeof eventTypes)[number];

/** The events of the feed and of replays: all but `webhook.test` (addressed to one subscription, no change of state). */
export const feedTypes = eventTypes.filter(
  (type): type is Exclude<EventType, "webhook.test"> => type !== "webhook.test",
);
export type FeedType = (typeof feedTypes)[number];

/** The read scope an event's family needs (README, "Events feed and replay"): what the feed shows a caller. */
export function readScopeOf(type: FeedType): Scope {
  if (type.startsWith("product.")) return "read:products";
  // A job's event holds the job, not its rows (its result needs the job's own scope): most jobs are stock's.
  if (type.startsWith("inventory.") || type.startsWith("job.")) return "read:inventory";
  if (type.startsWith("invoice.")) return "billing";
  return "read:orders";
}
