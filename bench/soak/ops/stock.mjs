// Stock adjustments (in and out) and transfers between a tenant's locations.
import { between, pick } from "../random.mjs";

export const adjust = {
  name: "adjust",
  weight: 14,
  async run(t) {
    const quantity = Math.random() < 0.6 ? between(1, 20) : -between(1, 6);
    const body = { productId: pick(t.products.slice(0, 8)), locationId: pick(t.locations), quantity };
    await t.track(
      "adjust",
      () => t.client.inventory.adjust({ ...body, reason: quantity > 0 ? "received" : "damaged" }),
      (d) => ({ events: [`inventory.adjusted:${d.movement.id}`], readable: [d.movement.id] }),
    );
  },
};

export const transfer = {
  name: "transfer",
  weight: 8,
  async run(t) {
    const [fromLocationId, toLocationId] = [...t.locations].sort(() => Math.random() - 0.5);
    const body = {
      productId: pick(t.products.slice(0, 8)),
      fromLocationId,
      toLocationId,
      quantity: between(1, 3),
    };
    await t.track(
      "transfer",
      () => t.client.inventory.transfer(body),
      (d) => ({ events: [`inventory.transferred:${d.transferId}`], readable: d.movements.map((m) => m.id) }),
    );
  },
};
