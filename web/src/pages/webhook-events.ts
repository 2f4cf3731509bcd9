/** The events a subscription can name: the API's event catalogue (README, Webhooks). `*` means every event. */
export const WEBHOOK_EVENTS = [
  "order.created",
  "order.status_changed",
  "order.shipped",
  "order.delivered",
  "order.cancelled",
  "purchase_order.received",
  "inventory.adjusted",
  "inventory.transferred",
  "inventory.low_stock",
  "product.created",
  "product.updated",
  "product.deleted",
] as const;
