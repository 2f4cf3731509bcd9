// The demo tenant's warehouse, made through the public API (so it is always valid data) by `npm run dev` once
// the server answers: two warehouses with bins, 120 products with EAN-13 barcodes, lot-tracked products with
// expiry dates, thirty days of receipts, sales, transfers and write-offs, orders in every status, a purchase
// order waiting to be received, a cycle count in progress and a hold. It runs once: a tenant with products is
// left alone. The ledger's times are the server's, so every day of the history is written within seconds; the
// script then spreads each simulated day over that calendar day's working hours (see redate in this file and
// docs/decisions/web-app.md).
import { spawnSync } from "node:child_process";

const DAYS = 30;
const CATEGORIES = {
  Kitchen: [
    "Mug",
    "Teapot",
    "Chef knife",
    "Cutting board",
    "Colander",
    "Whisk",
    "Ladle",
    "Spatula",
    "Grater",
    "Kettle",
  ],
  Office: [
    "Ballpoint pen",
    "Notebook A5",
    "Stapler",
    "Desk tray",
    "Sticky notes",
    "Highlighter",
    "Binder clip box",
    "Paper ream",
    "Label tape",
    "Scissors",
  ],
  Lighting: [
    "Desk lamp",
    "LED bulb E27",
    "LED bulb GU10",
    "Floor lamp",
    "Strip light 2 m",
    "Night light",
    "Torch",
    "Head torch",
    "Lantern",
    "Work light",
  ],
  Tools: [
    "Claw hammer",
    "Screwdriver set",
    "Tape measure 5 m",
    "Spirit level",
    "Utility knife",
    "Pliers",
    "Socket set",
    "Hex key set",
    "Drill bit set",
    "Clamp",
  ],
  Garden: [
    "Trowel",
    "Pruning shears",
    "Hose 25 m",
    "Watering can",
    "Garden gloves",
    "Plant food 1 l",
    "Seed mix",
    "Lawn feed 5 kg",
    "Slug pellets",
    "Compost 40 l",
  ],
  Cleaning: [
    "Dish soap 500 ml",
    "Glass cleaner",
    "Floor cleaner 1 l",
    "Sponges 10-pack",
    "Microfibre cloth",
    "Bleach 1 l",
    "Descaler",
    "Bin bags 50",
    "Hand soap",
    "Laundry liquid 2 l",
  ],
};
// Consumables carry lots with an expiry date.
const LOTTED = new Set(["Garden", "Cleaning"]);
const SIZES = ["", " (large)"];

/** A small deterministic generator, so every demo looks the same. */
function random(seed) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** EAN-13 with its check digit (GS1: weights 1 and 3 from the left over the first twelve digits). */
export function ean13(twelveDigits) {
  const sum = [...twelveDigits].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return `${twelveDigits}${(10 - (sum % 10)) % 10}`;
}

const isoDay = (daysFromNow) => new Date(Date.now() + daysFromNow * 86_400_000).toISOString().slice(0, 10);

export async function fillDemoTenant(base, demo, { persist = [] } = {}) {
  const call = async (method, path, body) => {
    for (;;) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          "X-API-Key": demo.apiKey,
          ...(body !== undefined && { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const envelope = await response.json();
      // The demo tenant's plan allows 300 requests a minute: wait as the API says, as any client should.
      if (response.status === 429) {
        await new Promise((resolve) =>
          setTimeout(resolve, Number(response.headers.get("retry-after") ?? 5) * 1000),
        );
        continue;
      }
      if (!response.ok)
        throw new Error(`${method} ${path}: ${response.status} ${envelope.message} ${envelope.errors ?? ""}`);
      return envelope.data;
    }
  };
  if ((await call("GET", "/products?pageSize=1")).totalCount > 0) return;
  const started = Date.now();
  const next = random(42);
  const pick = (items) => items[Math.floor(next() * items.length)];
  const between = (low, high) => low + Math.floor(next() * (high - low + 1));

  // Warehouses and their bins, named in walking order (aisle, bay, level): the code's order is the pick path.
  const main = await call("POST", "/warehouses", {
    code: "MAIN",
    name: "Main warehouse",
    address: { street: "12 Dock Road", city: "Springfield", zip: "62701", country: "US" },
  });
  const east = await call("POST", "/warehouses", {
    code: "EAST",
    name: "East depot",
    address: { street: "3 Rail Yard", city: "Shelbyville", zip: "62565", country: "US" },
  });
  const location = (warehouse, code, name, type) =>
    call("POST", "/locations", { warehouseId: warehouse.id, code, name, type });
  await location(main, "DOCK-IN", "Inbound dock", "dock");
  await location(main, "STAGE-OUT", "Outbound staging", "staging");
  await location(east, "DOCK-IN", "Inbound dock", "dock");
  const mainBins = [];
  for (const aisle of ["A", "B", "C"])
    for (let bay = 1; bay <= 4; bay++)
      for (let level = 1; level <= 2; level++) {
        const code = `${aisle}-${String(bay).padStart(2, "0")}-${level}`;
        mainBins.push(await location(main, code, `Aisle ${aisle}, bay ${bay}, level ${level}`, "bin"));
      }
  const eastBins = [];
  for (let bay = 1; bay <= 8; bay++)
    eastBins.push(await location(east, `E-${String(bay).padStart(2, "0")}`, `East bay ${bay}`, "bin"));

  // 120 products in one import: EAN-13 barcodes in the GS1 in-store range (prefix 200).
  const rows = [];
  for (const [category, names] of Object.entries(CATEGORIES))
    for (const name of names)
      for (const size of SIZES) {
        const n = rows.length + 1;
        const price = Math.round((2 + next() * 60) * 100) / 100;
        rows.push({
          sku: `${category.slice(0, 3).toUpperCase()}-${String(n).padStart(3, "0")}`,
          name: `${name}${size}`,
          barcode: ean13(`200${String(100_000_000 + n * 7919).slice(-9)}`),
          category,
          unit: "each",
          price,
          cost: Math.round(price * (0.45 + next() * 0.2) * 100) / 100,
          reorderPoint: between(5, 25),
          tracking: LOTTED.has(category) ? "lot" : "none",
        });
      }
  // The import stores no `tracking` (it keeps the default, none), so lot-tracked products are created one by one.
  await call(
    "POST",
    "/products/import?mode=create",
    rows.filter((row) => row.tracking === "none"),
  );
  for (const row of rows.filter((r) => r.tracking !== "none")) await call("POST", "/products", row);
  const products = [];
  for (let page = 1; products.length < rows.length; page++)
    products.push(...(await call("GET", `/products?pageSize=100&page=${page}&sort=sku`)).items);
  const lotted = (product) => LOTTED.has(product.category);
  const binOf = new Map(products.map((p, i) => [p.id, mainBins[i % mainBins.length]]));
  const lotNumber = (product, day) =>
    `L${isoDay(-day).replaceAll("-", "").slice(2)}-${product.sku.slice(-3)}`;

  // Thirty days, oldest first. The boundaries (server times) let redate spread each day afterwards.
  const boundaries = [];
  const address = { street: "1 Main St", city: "Springfield", zip: "62701" };
  for (let day = DAYS; day >= 1; day--) {
    boundaries.push({ day, from: new Date().toISOString() });
    // A supplier delivery every few days: a purchase order, received into bins (with lots where tracked).
    if (day % 4 === 2 || day === DAYS) {
      const lines = (day === DAYS ? products : products.filter(() => next() < 0.2)).map((product) => ({
        productId: product.id,
        quantity: day === DAYS ? between(30, 60) : between(12, 36),
        cost: product.cost ?? 1,
      }));
      const order = await call("POST", "/orders/purchase", {
        supplier: pick(["Acme Supply", "Northwind Traders", "Globex Wholesale"]),
        warehouseId: main.id,
        lines,
      });
      await call("PATCH", `/orders/${order.id}/status`, { status: "ordered" });
      for (let start = 0; start < order.lines.length; start += 50) {
        await call("POST", `/orders/${order.id}/receive`, {
          lines: order.lines.slice(start, start + 50).map((line) => {
            const product = products.find((p) => p.id === line.productId);
            return {
              lineId: line.id,
              quantity: line.quantity,
              locationId: binOf.get(line.productId).id,
              ...(lotted(product) && {
                lotNumber: lotNumber(product, day),
                expiresAt: isoDay(between(20, 400)),
              }),
            };
          }),
        });
      }
    }
    // A replenishment of the east depot, then the day's sales from the main warehouse.
    if (day % 5 === 0) {
      for (const product of products.filter((p) => !lotted(p)).slice(day, day + 4)) {
        await call("POST", "/inventory/transfers", {
          productId: product.id,
          fromLocationId: binOf.get(product.id).id,
          toLocationId: pick(eastBins).id,
          quantity: between(2, 6),
        });
      }
    }
    for (let n = between(1, 3); n > 0; n--) {
      const chosen = products.filter((p) => !lotted(p) && next() < 0.06).slice(0, 5);
      if (chosen.length === 0) continue;
      const order = await call("POST", "/orders/sales", {
        customerId: `0193a2b0-0000-7000-8000-${String(between(100, 140)).padStart(12, "0")}`,
        warehouseId: main.id,
        lines: chosen.map((p) => ({ productId: p.id, quantity: between(1, 6), price: p.price ?? 1 })),
        shippingAddress: address,
      });
      if (day > 2) {
        await call("PATCH", `/orders/${order.id}/status`, {
          status: "shipped",
          trackingNumber: `1Z${between(1e6, 9e6)}`,
        });
        if (day > 9) await call("PATCH", `/orders/${order.id}/status`, { status: "delivered" });
      }
    }
    if (day % 7 === 3) {
      const product = pick(products.filter((p) => !lotted(p)));
      await call("POST", "/inventory/adjustments", {
        productId: product.id,
        locationId: binOf.get(product.id).id,
        quantity: -1,
        reason: "damaged",
        notes: "Dropped while picking",
      });
    }
  }
  boundaries.push({ day: 0, from: new Date().toISOString() });

  // Today: sales orders in every status, a purchase order waiting, a count in progress, a hold.
  const sale = (productIndex, quantity) =>
    call("POST", "/orders/sales", {
      customerId: "0193a2b0-0000-7000-8000-000000000200",
      warehouseId: main.id,
      lines: [{ productId: products[productIndex].id, quantity, price: products[productIndex].price ?? 1 }],
      shippingAddress: address,
    });
  for (const [index, status] of [
    [1, "confirmed"],
    [3, "picking"],
    [5, "packed"],
    [7, "shipped"],
    [9, "delivered"],
    [11, "cancelled"],
  ]) {
    const order = await sale(index, 2);
    if (status === "delivered")
      await call("PATCH", `/orders/${order.id}/status`, { status: "shipped", trackingNumber: "1Z4410" });
    await call("PATCH", `/orders/${order.id}/status`, {
      status,
      ...(status === "shipped" && { trackingNumber: "1Z4411" }),
    });
  }
  await sale(13, 1); // stays pending
  const waiting = await call("POST", "/orders/purchase", {
    supplier: "Acme Supply",
    warehouseId: main.id,
    expectedAt: `${isoDay(1)}T09:00:00.000Z`,
    lines: products.slice(100, 104).map((p) => ({ productId: p.id, quantity: 24, cost: p.cost ?? 1 })),
  });
  await call("PATCH", `/orders/${waiting.id}/status`, { status: "ordered" });
  await call("POST", "/orders/purchase", {
    supplier: "Globex Wholesale",
    warehouseId: east.id,
    lines: products.slice(20, 22).map((p) => ({ productId: p.id, quantity: 10, cost: p.cost ?? 1 })),
  }); // a draft
  const count = await call("POST", "/inventory/counts", { locationIds: [mainBins[0].id, mainBins[1].id] });
  const first = count.lines[0];
  if (first)
    await call("PUT", `/inventory/counts/${count.id}/lines`, {
      lines: [
        {
          productId: first.productId,
          locationId: first.locationId,
          counted: Math.max(0, first.expected - 1),
          ...(first.lotNumber && { lotNumber: first.lotNumber }),
        },
      ],
    });
  await call("POST", "/inventory/holds", {
    productId: products[30].id,
    quantity: 3,
    warehouseId: main.id,
    expiresAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    reference: "Showroom display",
  });
  redate(demo.tenantId, boundaries, persist);
  console.log(`[dev] demo data made through the API in ${Math.round((Date.now() - started) / 1000)} s`);
}

/**
 * Spreads each simulated day over that calendar day's working hours (08:00 to 17:00 UTC): the rows a day wrote
 * between its two server-time boundaries keep their order (the map is increasing), so every stock level's ledger
 * stays in commit order and later writes, stamped now, still come last. Only this local development database is
 * touched; the figures themselves were all made by the API.
 */
function redate(tenantId, boundaries, persist) {
  const quote = (value) => `'${String(value).replaceAll("'", "''")}'`;
  const columns = [
    ["stock_movements", "created_at"],
    ["orders", "created_at"],
    ["orders", "updated_at"],
    ["order_status_history", "created_at"],
    ["lots", "created_at"],
  ];
  const statements = [];
  for (let i = 0; i + 1 < boundaries.length; i++) {
    const { day, from } = boundaries[i];
    const to = boundaries[i + 1].from;
    const start = `${isoDay(-day)}T08:00:00.000Z`;
    const scale = (9 * 3_600_000) / Math.max(1, Date.parse(to) - Date.parse(from));
    for (const [table, column] of columns)
      statements.push(
        `update ${table} set ${column} = strftime('%Y-%m-%dT%H:%M:%fZ', julianday(${quote(start)}) + ` +
          `(julianday(${column}) - julianday(${quote(from)})) * ${scale}) where tenant_id = ${quote(tenantId)} ` +
          `and ${column} >= ${quote(from)} and ${column} < ${quote(to)};`,
      );
  }
  const result = spawnSync(
    "npx",
    ["wrangler", "d1", "execute", "SHARD_0", "--local", ...persist, "--command", statements.join("\n")],
    { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, CI: "true" } },
  );
  if (result.status !== 0)
    console.error("[dev] the demo history could not be spread over 30 days; it is dated today");
}
