/** Contract section 9: every event a subscription can name (`*` subscribes to all). */
export const eventTypes = [
  "order.created",
  "order.status_changed",
  "order.shipped",
  "order.delivered",
  "order.cancelled",
  "purchase_order.received",
  "inventory.adjusted",
  "inventory.transferred",
  "inventory.low_stock",
  "inventory.count_approved",
  "product.created",
  "product.updated",
  "product.deleted",
  "webhook.test",
] as const;

export type EventType = (typeof eventTypes)[number];
