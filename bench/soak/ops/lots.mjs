// Lot-tracked stock: receipts and removals naming a lot, transfers of one lot between bins. Sales orders
// allocate these products first-expiry-first-out (ops/sales.mjs); purchase receipts name a lot
// (ops/purchase.mjs). The checker sums the ledger per (product, location, lot).
import { between, pick } from "../random.mjs";

const day = (days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Each lot-tracked product's lots: a number always comes with the same expiry (a new one creates the lot). */
export const LOTS = [
  { lotNumber: "LOT-A", expiresAt: day(20) },
  { lotNumber: "LOT-B", expiresAt: day(90) },
  { lotNumber: "LOT-C" }, // never expires: FEFO offers it last
];

export const adjustLot = {
  name: "adjust-lot",
  weight: 5,
  async run(t) {
    const quantity = Math.random() < 0.7 ? between(1, 20) : -between(1, 5);
    const lot = pick(LOTS);
    const body = {
      productId: pick(t.lotProducts),
      locationId: pick(t.locations),
      quantity,
      reason: quantity > 0 ? "received" : "damaged",
      ...(quantity > 0 ? lot : { lotNumber: lot.lotNumber }),
    };
    await t.track(
      "adjust-lot",
      () => t.client.inventory.adjust(body),
      (d) => ({ events: [`inventory.adjusted:${d.movement.id}`], readable: [d.movement.id] }),
    );
  },
};

export const transferLot = {
  name: "transfer-lot",
  weight: 2,
  async run(t) {
    const [fromLocationId, toLocationId] = [...t.locations].sort(() => Math.random() - 0.5);
    const body = {
      productId: pick(t.lotProducts),
      fromLocationId,
      toLocationId,
      quantity: between(1, 3),
      lotNumber: pick(LOTS).lotNumber,
    };
    await t.track(
      "transfer-lot",
      () => t.client.inventory.transfer(body),
      (d) => ({ events: [`inventory.transferred:${d.transferId}`], readable: d.movements.map((m) => m.id) }),
    );
  },
};
