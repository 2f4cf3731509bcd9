// What identifies the change behind an event, computed the same way from a stored event's payload and from the
// response that acknowledged the change: two events with one key are one change told twice.

/** The change an event reports, or null for events that report no change of their own (derived, tests). */
export function eventKey(type, payload) {
  switch (type) {
    case "inventory.adjusted":
      return `${type}:${payload.movementId}`;
    case "inventory.transferred":
      return `${type}:${payload.transferId}`;
    case "inventory.low_stock":
    case "webhook.test":
      return null;
    default:
      // Orders, purchase orders and products carry the whole record as the change left it (a new updatedAt).
      return payload?.id && payload.updatedAt ? `${type}:${payload.id}:${payload.updatedAt}` : null;
  }
}
