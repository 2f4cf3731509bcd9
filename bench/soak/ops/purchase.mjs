// Purchase orders: created as drafts, ordered, then received (in part or whole) into a location, naming the lot
// when the product is lot-tracked.
import { between, pick } from "../random.mjs";
import { LOTS } from "./lots.mjs";

export const purchase = {
  name: "purchase-and-receive",
  weight: 5,
  async run(t) {
    // One purchase in four is of a lot-tracked product: its receipt names the lot.
    const lotted = Math.random() < 0.25;
    const productId = lotted ? pick(t.lotProducts) : pick(t.products.slice(0, 8));
    const created = await t.track(
      "create-purchase-order",
      () =>
        t.client.orders.createPurchase({
          supplier: "Soak Supplies",
          warehouseId: t.warehouseId,
          lines: [{ productId, quantity: between(5, 20), cost: 4.5 }],
        }),
      (o) => ({ events: [`order.created:${o.id}:${o.updatedAt}`], readable: [o.id] }),
    );
    const ordered = await t.track(
      "order-purchase-order",
      () => t.client.orders.updateStatus(created.id, { status: "ordered" }),
      (o) => ({ events: [`order.status_changed:${o.id}:${o.updatedAt}`] }),
    );
    const line = ordered.lines[0];
    const quantity = Math.random() < 0.5 ? line.quantity : between(1, line.quantity);
    await t.track(
      "receive-purchase-order",
      () =>
        t.client.orders.receive(created.id, {
          lines: [
            { lineId: line.id, quantity, locationId: pick(t.locations), ...(lotted ? pick(LOTS) : {}) },
          ],
        }),
      // Receiving always moves an ordered purchase order on (partially_received or received).
      (o) => ({
        events: [
          `purchase_order.received:${o.id}:${o.updatedAt}`,
          `order.status_changed:${o.id}:${o.updatedAt}`,
        ],
      }),
    );
  },
};
