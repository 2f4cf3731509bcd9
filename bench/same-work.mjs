// The API against the same necessary work (issue #35): the anchor in bench/anchor/ does only the D1 work of
// each request (no framework), served the same way. For each scenario, 3 alternating rounds (API first, then
// anchor first, then API first), the ratio of req/s per round, and CPU ms per request of each server's
// whole process group (from /proc, so background work the request causes counts too).
// Goals: hot-SKU adjustment >= 0.6, 100 SKUs >= 0.7, 3-line order >= 0.5, page of 20 >= 0.9; CPU <= 2x.
// Issue #49 adds GET /auth/me, the scan-confirmed pick (on one line, and across 50 lines in turn) and a one-package
// shipment (each request ships 1 unit of the next of 50 confirmed orders), goal 0.8 each.
// Run: npm run bench -- same-work   (BENCH_DURATION=<s> per round, default 10)
import { cpuSecondsOf, createTenant, load, startAnchor, startApi, startHello } from "./lib.mjs";
import { seedProducts } from "./seed-products.mjs";

const ROUNDS = 3;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const SKUS = 100;
const PICK_LINES = 50;
const PICK_QUANTITY = 1_000_000;
const SHIP_ORDERS = 50;
const SHIP_QUANTITY = 10_000;

const api = await startApi({ port: 8870, persistTo: "/tmp/bench-same-work-state", fresh: true });
const anchor = await startAnchor({ port: 8871 });
const hello = await startHello({ port: 8872 });

async function call(url, init) {
  const response = await fetch(url, init);
  const body = await response.json();
  if (response.status >= 300) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return { body, stats: response.headers.get("x-d1-stats") };
}

try {
  // The API's data, through the API: a tenant, a location, 100 products with stock.
  const tenant = await createTenant(api.api, "enterprise");
  const headers = { "x-api-key": tenant.key, "content-type": "application/json" };
  await seedProducts(api.api, tenant.key, SKUS, "SW");
  const post = (path, body) =>
    call(`${api.api}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  const warehouse = (await post("/warehouses", { code: "SW", name: "Same work" })).body.data;
  const location = (
    await post("/locations", { warehouseId: warehouse.id, code: "A-1", name: "A-1", type: "bin" })
  ).body.data;
  const listed = (await call(`${api.api}/products?pageSize=${SKUS}`, { headers })).body.data.items;
  const products = listed.map((p) => p.id);
  for (const productId of products) {
    await post("/inventory/adjustments", {
      productId,
      locationId: location.id,
      quantity: 500_000_000,
      reason: "bench",
    });
  }
  // Picks: a packing location, a confirmed order of one active product and one of 50, and their pick lists.
  const sellable = listed.filter((p) => p.status === "Active");
  await post("/locations", { warehouseId: warehouse.id, code: "PACK", name: "Packing", type: "packing" });
  const pickListOf = async (picked) => {
    const order = (
      await post("/orders/sales", {
        customerId: crypto.randomUUID(),
        warehouseId: warehouse.id,
        lines: picked.map((p) => ({ productId: p.id, quantity: PICK_QUANTITY, price: 1 })),
        shippingAddress: { street: "1 Bench St", city: "Load", zip: "10000" },
      })
    ).body.data;
    await call(`${api.api}/orders/${order.id}/status`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ status: "confirmed" }),
    });
    return (await post("/pick-lists", { warehouseId: warehouse.id, orderIds: [order.id] })).body.data;
  };
  const apiPickOne = await pickListOf(sellable.slice(0, 1));
  const apiPickMany = await pickListOf(sellable.slice(1, 1 + PICK_LINES));
  // Shipments: SHIP_ORDERS confirmed one-line orders of one more product.
  const shipped = sellable[1 + PICK_LINES];
  const apiShipOrders = [];
  for (let i = 0; i < SHIP_ORDERS; i++) {
    const order = (
      await post("/orders/sales", {
        customerId: crypto.randomUUID(),
        warehouseId: warehouse.id,
        lines: [{ productId: shipped.id, quantity: SHIP_QUANTITY, price: 1 }],
        shippingAddress: { street: "1 Bench St", city: "Load", zip: "10000" },
      })
    ).body.data;
    await call(`${api.api}/orders/${order.id}/status`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ status: "confirmed" }),
    });
    apiShipOrders.push({ id: order.id, lineId: order.lines[0].id });
  }

  // The anchor's: the same shapes, seeded by SQL.
  const anchorKey = `wms_test_anchor${crypto.randomUUID().replaceAll("-", "")}`;
  const seeded = (
    await call(`${anchor.url}/seed`, { method: "POST", body: JSON.stringify({ key: anchorKey }) })
  ).body;
  const anchorHeaders = { "x-api-key": anchorKey, "content-type": "application/json" };
  const anchorPickList = async (indexes) => ({
    indexes,
    ...(
      await call(`${anchor.url}/seed-pick`, {
        method: "POST",
        body: JSON.stringify({
          tenant: seeded.tenant,
          location: seeded.location,
          productIds: indexes.map((i) => seeded.productIds[i]),
          quantity: PICK_QUANTITY,
        }),
      })
    ).body,
  });
  const anchorPickOne = await anchorPickList([1]);
  const anchorPickMany = await anchorPickList(Array.from({ length: PICK_LINES }, (_, i) => 2 + i));
  const anchorShipOrders = (
    await call(`${anchor.url}/seed-shipments`, {
      method: "POST",
      body: JSON.stringify({
        tenant: seeded.tenant,
        location: seeded.location,
        productId: seeded.productIds[2 + PICK_LINES],
        quantity: SHIP_QUANTITY,
        count: SHIP_ORDERS,
      }),
    })
  ).body.orders.map(({ order, line }) => ({ id: order, lineId: line }));
  /**
   * One package of 1 unit per request, each request the next order of all connections together (shipments of
   * one order are serialised by its version: spreading them measures the write, not the 409s).
   */
  const shipments = (base, hdrs, orders) => {
    const prefix = new URL(base).pathname.replace(/\/$/, "");
    const bodyOf = (order) =>
      JSON.stringify({
        packages: [{ weight: { value: 1, unit: "kg" }, lines: [{ orderLineId: order.lineId, quantity: 1 }] }],
      });
    let next = 0;
    return {
      url: `${base}/orders/${orders[0].id}/shipments`,
      method: "POST",
      headers: hdrs,
      requests: [
        {
          method: "POST",
          headers: hdrs,
          body: bodyOf(orders[0]),
          setupRequest: (request) => {
            const order = orders[next++ % orders.length];
            return { ...request, path: `${prefix}/orders/${order.id}/shipments`, body: bodyOf(order) };
          },
        },
      ],
    };
  };
  /** One pick of one unit per line, the lines in turn: the same body the API takes (line, bin code, SKU). */
  const picks = (url, hdrs, lines) => ({
    url,
    method: "POST",
    headers: hdrs,
    requests: lines.map((line) => ({
      method: "POST",
      headers: hdrs,
      body: JSON.stringify({ lineId: line.id, location: line.location, product: line.sku, quantity: 1 }),
    })),
  });
  const apiLines = (list) => list.lines.map((l) => ({ id: l.id, location: l.locationCode, sku: l.sku }));
  const anchorLines = (seededList) =>
    seededList.lineIds.map((id, i) => ({ id, location: "A-1", sku: `SKU-${seededList.indexes[i]}` }));

  const adjustment = (productId, locationId) =>
    JSON.stringify({ productId, locationId, quantity: 1, reason: "bench" });
  const order = (ids) =>
    JSON.stringify({
      customerId: crypto.randomUUID(),
      lines: ids.slice(0, 3).map((productId) => ({ productId, quantity: 1, price: 9.99 })),
      shippingAddress: { street: "1 Bench St", city: "Load", zip: "10000" },
    });
  const spread = (url, hdrs, ids, locationId) => ({
    url,
    method: "POST",
    headers: hdrs,
    requests: ids.map((id) => ({ method: "POST", headers: hdrs, body: adjustment(id, locationId) })),
  });
  /** Picks on an API pick list and on its anchor twin, each line in turn. */
  const pickScenario = (apiList, anchorList) => ({
    api: picks(`${api.api}/pick-lists/${apiList.id}/picks`, headers, apiLines(apiList)),
    anchor: picks(
      `${anchor.url}/pick-lists/${anchorList.pickListId}/picks`,
      anchorHeaders,
      anchorLines(anchorList),
    ),
    goal: 0.8,
  });
  const scenarios = {
    "hot-SKU adjustment (one level)": {
      api: {
        url: `${api.api}/inventory/adjustments`,
        method: "POST",
        headers,
        body: adjustment(products[0], location.id),
      },
      anchor: {
        url: `${anchor.url}/adjust`,
        method: "POST",
        headers: anchorHeaders,
        body: adjustment(seeded.productIds[0], seeded.location),
      },
      goal: 0.6,
    },
    "adjustments over 100 SKUs": {
      api: spread(`${api.api}/inventory/adjustments`, headers, products, location.id),
      anchor: spread(`${anchor.url}/adjust`, anchorHeaders, seeded.productIds, seeded.location),
      goal: 0.7,
    },
    "3-line sales order": {
      api: { url: `${api.api}/orders/sales`, method: "POST", headers, body: order(products) },
      anchor: {
        url: `${anchor.url}/orders`,
        method: "POST",
        headers: anchorHeaders,
        body: order(seeded.productIds),
      },
      goal: 0.5,
    },
    "GET /auth/me (API key)": {
      api: { url: `${api.api}/auth/me`, headers },
      anchor: { url: `${anchor.url}/me`, headers: anchorHeaders },
      goal: 0.8,
    },
    "pick of 1 unit (one line)": pickScenario(apiPickOne, anchorPickOne),
    [`picks of 1 unit (${PICK_LINES} lines in turn)`]: pickScenario(apiPickMany, anchorPickMany),
    [`shipment of 1 package (${SHIP_ORDERS} orders in turn)`]: {
      api: shipments(api.api, headers, apiShipOrders),
      anchor: shipments(anchor.url, anchorHeaders, anchorShipOrders),
      goal: 0.8,
    },
    "product page of 20": {
      api: { url: `${api.api}/products?pageSize=20`, headers },
      anchor: { url: `${anchor.url}/products?pageSize=20`, headers: anchorHeaders },
      goal: 0.9,
    },
  };

  // One request of each through the API, for its D1 round trips and rows.
  const d1Stats = {};
  for (const [name, { api: target }] of Object.entries(scenarios)) {
    const init = {
      method: target.method ?? "GET",
      headers: target.headers,
      body: target.requests?.[0].body ?? target.body,
    };
    d1Stats[name] = (await call(target.url, init)).stats;
  }

  /** One autocannon round with the CPU its server's process group spent on it. */
  const measured = async (target, group) => {
    const cpuBefore = cpuSecondsOf(group);
    const result = await load({ ...target, duration: DURATION });
    const cpu = cpuSecondsOf(group) - cpuBefore;
    return { ...result, cpuMsPerRequest: result.total ? (cpu * 1000) / result.total : Number.NaN };
  };
  await load({ url: hello.url, duration: 2 });
  const helloRound = await measured({ url: hello.url }, hello.group);
  const rows = [];
  for (const [name, scenario] of Object.entries(scenarios)) {
    await load({ ...scenario.api, duration: 2 }); // warm-up
    await load({ ...scenario.anchor, duration: 2 });
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      const apiFirst = round % 2 === 0;
      const first = apiFirst
        ? await measured(scenario.api, api.group)
        : await measured(scenario.anchor, anchor.group);
      const second = apiFirst
        ? await measured(scenario.anchor, anchor.group)
        : await measured(scenario.api, api.group);
      rounds.push(apiFirst ? { api: first, anchor: second } : { api: second, anchor: first });
    }
    rows.push({ name, goal: scenario.goal, rounds });
  }

  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const fixed = (x, digits = 0) => x.toFixed(digits);
  console.log(
    `\n## same-work anchor: the API's share of the same necessary work (${ROUNDS} alternating rounds of ${DURATION} s)`,
  );
  console.log(
    `bare hello (context): ${fixed(helloRound.requestsPerSecond)} req/s, ${fixed(helloRound.cpuMsPerRequest, 2)} CPU ms/request`,
  );
  console.log(
    "| scenario | API req/s | anchor req/s | ratio per round | mean ratio (goal) | API / anchor p50 ms | CPU ms/req API / anchor (ratio) | non-2xx API / anchor | API X-D1-Stats |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const { name, goal, rounds } of rows) {
    const ratios = rounds.map((r) => r.api.requestsPerSecond / r.anchor.requestsPerSecond);
    const apiCpu = mean(rounds.map((r) => r.api.cpuMsPerRequest));
    const anchorCpu = mean(rounds.map((r) => r.anchor.cpuMsPerRequest));
    const ratio = mean(ratios);
    console.log(
      `| ${name} | ${fixed(mean(rounds.map((r) => r.api.requestsPerSecond)))} | ${fixed(mean(rounds.map((r) => r.anchor.requestsPerSecond)))} | ${ratios.map((x) => fixed(x, 2)).join(", ")} | ${fixed(ratio, 2)} (>= ${goal}: ${ratio >= goal ? "met" : "missed"}) | ${fixed(mean(rounds.map((r) => r.api.p50)))} / ${fixed(mean(rounds.map((r) => r.anchor.p50)))} | ${fixed(apiCpu, 2)} / ${fixed(anchorCpu, 2)} (${fixed(apiCpu / anchorCpu, 2)}) | ${rounds.reduce((s, r) => s + r.api.non2xx, 0)} / ${rounds.reduce((s, r) => s + r.anchor.non2xx, 0)} | ${d1Stats[name]} |`,
    );
  }
} finally {
  api.stop();
  anchor.stop();
  hello.stop();
}
