// The soak's tenants: mixed plans, each with a warehouse, three bins, products (two of them lot-tracked) with opening stock and webhook
// subscriptions at the local receivers (see receiversOf), created through the official client as an integrator would.
import { newFeed } from "./ops/feed.mjs";
import { LOTS } from "./ops/lots.mjs";
import { unique } from "./random.mjs";

const PLANS = ["starter", "business", "enterprise"];
export const LIMITS = { starter: 60, business: 300 };

/**
 * Which receivers tenant number `i` subscribes to: about half the tenants at the healthy one, a few at each of the
 * others, exactly one at the 410 one. Locally one queue consumer delivers everything, one batch at a time, so
 * more subscriptions would only measure that consumer's backlog.
 */
function receiversOf(i) {
  return [
    i % 2 === 0 && "healthy",
    i % 5 === 1 && "slow",
    i % 4 === 3 && "stalling",
    i % 6 === 5 && "flaky",
    i === 2 && "gone",
  ].filter(Boolean);
}

export async function createTenant({ i, api, history, WarehouseClient, platformToken, receivers }) {
  const plan = PLANS[i % PLANS.length];
  const platform = new WarehouseClient({ baseUrl: api, platformToken, fetch: history.fetchFor(undefined) });
  const name = unique(`Soak ${i}`);
  const created = await platform.platform.createTenant({
    name,
    plan,
    owner: {
      email: `${name.toLowerCase().replace(/\W/g, "-")}@example.com`,
      password: "soak-password-1",
      name: "Soak",
    },
  });
  const id = created.tenant.id;
  const client = new WarehouseClient({
    baseUrl: api,
    apiKey: created.apiKey.key,
    fetch: history.fetchFor(id),
  });
  const t = {
    i,
    id,
    plan,
    // A few Starter tenants send bursts beyond their plan (ops/burst.mjs), so the limiter must refuse.
    greedy: plan === "starter" && i % 12 === 0,
    client,
    customerId: crypto.randomUUID(),
    products: [],
    lotProducts: [],
    locations: [],
    openSales: new Map(),
    feed: newFeed(),
    subscriptions: [],
    track: (op, call, expect) => history.track(t, op, call, expect),
  };
  const warehouse = await client.warehouses.create({ code: unique("WH"), name: "Soak warehouse" });
  t.warehouseId = warehouse.id;
  for (let n = 0; n < 3; n++) {
    const location = await client.locations.create({
      warehouseId: warehouse.id,
      code: unique("BIN"),
      name: `Bin ${n}`,
      type: "bin",
    });
    t.locations.push(location.id);
  }
  for (const name of receiversOf(i)) {
    const url = `${receivers[name].url}/${id}`;
    const subscription = await client.webhooks.create({ url, events: ["*"], description: `soak ${name}` });
    t.subscriptions.push({ name, url, id: subscription.id });
  }
  for (let n = 0; n < 6; n++) {
    const product = await client.products.create({
      sku: unique("SOAK"),
      name: "Soak widget",
      price: 12.5,
      cost: 7,
    });
    t.products.push(product.id);
    await client.inventory.adjust({
      productId: product.id,
      locationId: t.locations[n % 3],
      quantity: 50,
      reason: "received",
    });
  }
  // Lot-tracked products, with opening stock in every lot (see ops/lots.mjs).
  for (let n = 0; n < 2; n++) {
    const product = await client.products.create({
      sku: unique("LOTTED"),
      name: "Soak perishable",
      price: 4,
      cost: 1.5,
      tracking: "lot",
    });
    t.lotProducts.push(product.id);
    for (const [k, lot] of LOTS.entries()) {
      await client.inventory.adjust({
        productId: product.id,
        locationId: t.locations[(n + k) % 3],
        quantity: 30,
        reason: "received",
        ...lot,
      });
    }
  }
  return t;
}
