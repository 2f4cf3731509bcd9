// Stock holds (a cart or a quote): created, then released, consumed by a sales order line (`holdId`), or left
// to expire (the minute's sweep gives their stock back). An active hold counts in `reserved` like an open
// order line (checker.mjs, reserved-equals-reservations).
import { between, pick } from "../random.mjs";

const holdEvent = (type, hold) => `${type}:${hold.id}:${hold.updatedAt}`;

function createHold(t, { seconds, productId = pick(t.products.slice(0, 8)) }) {
  return t.track(
    "create-hold",
    () =>
      t.client.inventory.createHold({
        productId,
        quantity: between(1, 3),
        expiresAt: new Date(Date.now() + seconds * 1000).toISOString(),
        reference: `cart-${t.i}`,
      }),
    (h) => ({ events: [holdEvent("inventory.hold_created", h)], readable: [h.id] }),
  );
}

export const holdAndRelease = {
  name: "hold-and-release",
  weight: 3,
  async run(t) {
    const hold = await createHold(t, { seconds: 600 });
    await t.track(
      "release-hold",
      () => t.client.inventory.releaseHold(hold.id),
      (h) => ({ events: [holdEvent("inventory.hold_released", h)] }),
    );
  },
};

export const holdAndOrder = {
  name: "hold-and-order",
  weight: 3,
  async run(t) {
    // Lot-tracked stock can be held too: the order line keeps the hold's lots.
    const productId = Math.random() < 0.3 ? pick(t.lotProducts) : pick(t.products.slice(0, 8));
    const hold = await createHold(t, { seconds: 600, productId });
    const order = await t.track(
      "order-held-stock",
      () =>
        t.client.orders.createSales({
          customerId: t.customerId,
          lines: [{ productId, quantity: hold.quantity, price: 19.99, holdId: hold.id }],
          shippingAddress: { street: "1 Soak Street", city: "Load", zip: "10101" },
        }),
      (o) => ({ events: [`order.created:${o.id}:${o.updatedAt}`], readable: [o.id] }),
    );
    t.openSales.set(order.id, order.status);
  },
};

export const holdAndExpire = {
  name: "hold-and-expire",
  weight: 2,
  // Expires within a minute or two: the sweep (every minute) or the next reservation meeting it releases it.
  run: (t) => createHold(t, { seconds: between(20, 90) }),
};
