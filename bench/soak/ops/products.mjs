// Product creates and updates (PUT, no If-Match: the last writer wins, each write is its own event).
import { pick, unique } from "../random.mjs";

const productEvent = (type, product) => `${type}:${product.id}:${product.updatedAt}`;

export const createProduct = {
  name: "create-product",
  weight: 4,
  async run(t) {
    const product = await t.track(
      "create-product",
      () => t.client.products.create({ sku: unique("SOAK"), name: "Soak widget", price: 12.5, cost: 7.25 }),
      (p) => ({ events: [productEvent("product.created", p)], readable: [p.id] }),
    );
    t.products.push(product.id);
  },
};

export const updateProduct = {
  name: "update-product",
  weight: 5,
  async run(t) {
    const id = pick(t.products);
    await t.track(
      "update-product",
      () => t.client.products.update(id, { name: `Soak widget ${unique("v")}`, reorderPoint: 5 }),
      (p) => ({ events: [productEvent("product.updated", p)], readable: [p.id] }),
    );
  },
};

export const importProducts = {
  name: "import-products",
  weight: 1,
  async run(t) {
    const rows = Array.from({ length: 5 }, () => ({ sku: unique("IMP"), name: "Imported", price: 3 }));
    await t.track("import-products", () => t.client.products.import(rows, { mode: "upsert" }));
  },
};
