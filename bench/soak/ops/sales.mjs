// Sales orders through their whole lifecycle: created (stock reserved), moved forward one step at a time,
// shipped (stock leaves), delivered, or cancelled on the way (reservations released).
import { between, pick } from "../random.mjs";
import { LOTS } from "./lots.mjs";

const NEXT = {
  pending: "confirmed",
  confirmed: "picking",
  picking: "packed",
  packed: "shipped",
  shipped: "delivered",
};

/** The events one status change writes, keyed by the order as the change left it. */
function statusEvents(order) {
  const types = ["order.status_changed"];
  if (order.status === "shipped") types.push("order.shipped");
  if (order.status === "delivered") types.push("order.delivered");
  if (order.status === "cancelled") types.push("order.cancelled");
  return types.map((type) => `${type}:${order.id}:${order.updatedAt}`);
}

export const createSalesOrder = {
  name: "create-sales-order",
  weight: 10,
  async run(t) {
    // Untracked products and lot-tracked ones (allocated first-expiry-first-out, or pinned to a lot).
    const candidates = [...t.products.slice(0, 8), ...t.lotProducts];
    const lines = [...new Set([pick(candidates), pick(candidates)])].map((productId) => ({
      productId,
      quantity: between(1, 3),
      price: 19.99,
      ...(t.lotProducts.includes(productId) && Math.random() < 0.25
        ? { lotNumber: pick(LOTS).lotNumber }
        : {}),
    }));
    const order = await t.track(
      "create-sales-order",
      () =>
        t.client.orders.createSales({
          customerId: t.customerId,
          lines,
          shippingAddress: { street: "1 Soak Street", city: "Load", zip: "10101" },
        }),
      (o) => ({ events: [`order.created:${o.id}:${o.updatedAt}`], readable: [o.id] }),
    );
    t.openSales.set(order.id, order.status);
  },
};

export const advanceSalesOrder = {
  name: "advance-sales-order",
  weight: 12,
  async run(t) {
    if (t.openSales.size === 0) return;
    const id = pick([...t.openSales.keys()]);
    const to =
      Math.random() < 0.12 && t.openSales.get(id) !== "shipped" ? "cancelled" : NEXT[t.openSales.get(id)];
    const order = await t.track(
      "advance-sales-order",
      () => t.client.orders.updateStatus(id, { status: to }),
      (o) => ({ events: statusEvents(o), readable: [o.id] }),
    );
    if (order.status === "delivered" || order.status === "cancelled") t.openSales.delete(id);
    else t.openSales.set(id, order.status);
  },
};
