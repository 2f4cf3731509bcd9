// Fulfilment (issue #29): scan-confirmed picks per second on one pick list line (every request on the same line:
// its picked quantity and one bin's stock level are the contended rows) and across many lines (each request the
// next of 50 lines, each its own product and bin), shipment creation (each request ships one unit from the next of
// 50 orders: shipments on one order are serialised by the order's version, so spreading them measures the write,
// not the 409s), each against the bare hello Worker; and the creation time of a
// 200-order wave next to a 1-order pick list's (median of rounds; each round's pick list is cancelled, which leaves
// its orders `picking` and free for the next).
// Run: npm run bench -- fulfilment   (or: node bench/fulfilment.mjs)
import { createTenant, DEFAULT_LOAD, load, report, startApi, startHello } from "./lib.mjs";

const WAVE = 200;
const ROUNDS = 5;
// Lines and orders the spread scenarios go round: 5 per connection, so two requests in flight rarely share one.
const SPREAD = 5 * DEFAULT_LOAD.connections;
const STOCK = 1_000_000;
const ADDRESS = { street: "1 Bench St", city: "Load", zip: "10000" };

const api = await startApi({ port: 8870, persistTo: "/tmp/bench-fulfilment-state", fresh: true });
const hello = await startHello({ port: 8871 });

/** Sends through the API as the tenant; returns the envelope's data, or throws on an unexpected status. */
async function send(method, path, headers, body, expected = [200, 201]) {
  const response = await fetch(`${api.api}${path}`, { method, headers, body: JSON.stringify(body) });
  const json = await response.json();
  if (!expected.includes(response.status)) {
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  }
  return json.data;
}

/** `count` products, each with STOCK units in its own bin of the warehouse. */
async function stockedProducts(headers, warehouseId, prefix, count) {
  const stocked = [];
  for (let i = 0; i < count; i++) {
    const product = await send("POST", "/products", headers, {
      sku: `${prefix}-${i}`,
      name: `${prefix} ${i}`,
    });
    const bin = await send("POST", "/locations", headers, {
      warehouseId,
      code: `${prefix}-BIN-${i}`,
      name: "Bin",
      type: "bin",
    });
    await send("POST", "/inventory/adjustments", headers, {
      productId: product.id,
      locationId: bin.id,
      quantity: STOCK,
      reason: "bench",
    });
    stocked.push({ product, bin });
  }
  return stocked;
}

/** A confirmed sales order of `quantity` of each product. */
async function confirmedOrder(headers, warehouseId, stocked, quantity) {
  const order = await send("POST", "/orders/sales", headers, {
    customerId: crypto.randomUUID(),
    warehouseId,
    lines: stocked.map(({ product }) => ({ productId: product.id, quantity, price: 1 })),
    shippingAddress: ADDRESS,
  });
  await send("PATCH", `/orders/${order.id}/status`, headers, { status: "confirmed" });
  return order;
}

/** One autocannon request whose path and body are built from the next of `items` each time it is sent. */
function perConnection(path, items, bodyOf) {
  let next = 0;
  return [
    {
      method: "POST",
      path: path(items[0]),
      setupRequest: (request) => {
        const item = items[next++ % items.length];
        return { ...request, path: path(item), body: JSON.stringify(bodyOf(item)) };
      },
    },
  ];
}

/** Milliseconds of one POST /pick-lists for `orderIds`, and its cancellation (not timed). */
async function timedPickList(headers, warehouseId, orderIds) {
  const started = performance.now();
  const pickList = await send("POST", "/pick-lists", headers, { warehouseId, orderIds });
  const ms = performance.now() - started;
  await send("POST", `/pick-lists/${pickList.id}/cancel`, headers, {});
  return ms;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  const tenant = await createTenant(api.api, "enterprise");
  const headers = { "x-api-key": tenant.key, "content-type": "application/json" };
  const warehouse = await send("POST", "/warehouses", headers, { code: "BENCH", name: "Bench" });

  // Picks on one line: one order, one line, every connection scanning it.
  const [single] = await stockedProducts(headers, warehouse.id, "ONE", 1);
  const oneOrder = await confirmedOrder(headers, warehouse.id, [single], STOCK / 2);
  const onePickList = await send("POST", "/pick-lists", headers, {
    warehouseId: warehouse.id,
    orderIds: [oneOrder.id],
  });
  const oneLine = onePickList.lines[0];
  const onePick = JSON.stringify({
    lineId: oneLine.id,
    location: single.bin.code,
    product: single.product.sku,
    quantity: 1,
  });

  // Picks across many lines: one order of SPREAD lines (each its own product and bin).
  const many = await stockedProducts(headers, warehouse.id, "MANY", SPREAD);
  const manyOrder = await confirmedOrder(headers, warehouse.id, many, STOCK / 2);
  const manyPickList = await send("POST", "/pick-lists", headers, {
    warehouseId: warehouse.id,
    orderIds: [manyOrder.id],
  });
  const manyLines = manyPickList.lines.map((line) => ({
    line,
    stocked: many.find(({ product }) => product.id === line.productId),
  }));

  // Shipments: SPREAD orders, never on a pick list (units come straight from their reservations).
  const [shipped] = await stockedProducts(headers, warehouse.id, "SHIP", 1);
  const shipOrders = [];
  for (let i = 0; i < SPREAD; i++) {
    shipOrders.push(await confirmedOrder(headers, warehouse.id, [shipped], 10_000));
  }

  // The wave: WAVE confirmed 1-line orders, and one more for the 1-order pick list.
  const [waved] = await stockedProducts(headers, warehouse.id, "WAVE", 1);
  const waveOrders = [];
  for (let i = 0; i <= WAVE; i++) waveOrders.push(await confirmedOrder(headers, warehouse.id, [waved], 1));
  const loneId = waveOrders.pop().id;
  const waveIds = waveOrders.map((o) => o.id);

  await load({ url: hello.url, duration: 2 }); // warm-up
  const baseline = await load({ url: hello.url });
  const pickOne = await load({
    url: `${api.api}/pick-lists/${onePickList.id}/picks`,
    method: "POST",
    headers,
    body: onePick,
  });
  const prefix = new URL(api.api).pathname;
  const pickMany = await load({
    url: api.api,
    headers,
    requests: perConnection(
      () => `${prefix}/pick-lists/${manyPickList.id}/picks`,
      manyLines,
      ({ line, stocked }) => ({
        lineId: line.id,
        location: stocked.bin.code,
        product: stocked.product.sku,
        quantity: 1,
      }),
    ),
  });
  const ship = await load({
    url: api.api,
    headers,
    requests: perConnection(
      (order) => `${prefix}/orders/${order.id}/shipments`,
      shipOrders,
      (order) => ({
        packages: [
          { weight: { value: 1, unit: "kg" }, lines: [{ orderLineId: order.lines[0].id, quantity: 1 }] },
        ],
      }),
    ),
  });

  const lone = [];
  const wave = [];
  for (let round = 0; round < ROUNDS; round++) {
    lone.push(await timedPickList(headers, warehouse.id, [loneId]));
    wave.push(await timedPickList(headers, warehouse.id, waveIds));
  }

  report(
    "fulfilment",
    {
      "bare hello": baseline,
      "POST /api/v1/pick-lists/{id}/picks (one line, every connection)": pickOne,
      [`POST /api/v1/pick-lists/{id}/picks (${SPREAD} lines in turn)`]: pickMany,
      [`POST /api/v1/orders/{id}/shipments (1 package, ${SPREAD} orders in turn)`]: ship,
    },
    baseline,
  );
  const loneMs = median(lone);
  const waveMs = median(wave);
  console.log(
    `\npick list creation, median of ${ROUNDS}: 1 order ${loneMs.toFixed(0)} ms; ${WAVE}-order wave ` +
      `${waveMs.toFixed(0)} ms (${(waveMs / loneMs).toFixed(1)}x, ${(waveMs / WAVE).toFixed(1)} ms per order); ` +
      `rounds: 1 order ${lone.map((ms) => ms.toFixed(0)).join(", ")}; wave ${wave.map((ms) => ms.toFixed(0)).join(", ")}`,
  );
} finally {
  api.stop();
  hello.stop();
}
