// The demo tenant's month, planned as a pure function of one date (`today`, a UTC day): every request the filler
// (scripts/demo/fill.mjs) sends, in order, in sections of one day each. Each quantity is checked against a model
// of what the plan has done so far (scripts/demo/model.mjs), so the plan is valid by construction: stock is
// received before it is sold, no order asks for more than is available, nothing leaves a bin that an order may
// have reserved. The schedule follows the calendar (deliveries on Mondays and Thursdays, no sales on Sundays), so
// each date makes a different month; `npm run test:first-run` plans many dates, and `npm run dev` runs today's.
//
// A request names what earlier ones made by placeholders the filler resolves from their answers:
//   "@order:T-1"                the id of what the step saved as `order:T-1` (warehouse:, location:, product:, ...)
//   "@line:order:T-1:MUG-001"   the id of that order's (or return's) line of the product
//   "@package:shipment:S-1:2"   the id of that shipment's package number 2
//   "@receiver"                 the URL of the webhook receiver `npm run dev` runs
// and paths put a saved id in braces: `/orders/{order:T-1}/status`.
import { StockModel } from "./model.mjs";

/** Days of history before today. */
export const DAYS = 30;
const DAY_MS = 86_400_000;

/** `day` plus `n` days (UTC), both `YYYY-MM-DD`. */
export const addDays = (day, n) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);
const weekday = (day) => new Date(`${day}T00:00:00.000Z`).getUTCDay(); // 0 is Sunday

/** mulberry32: a small deterministic generator (32-bit integer arithmetic, so every run draws the same). */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** EAN-13 with its check digit (GS1: weights 1 and 3 from the left over the first twelve digits). */
export function ean13(twelveDigits) {
  const sum = [...twelveDigits].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return `${twelveDigits}${(10 - (sum % 10)) % 10}`;
}

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
// Small items the suppliers deliver by the case (a packaging of 12 with its own barcode).
const CASED = new Set([
  "Mug",
  "Ballpoint pen",
  "Sticky notes",
  "Highlighter",
  "LED bulb E27",
  "Sponges 10-pack",
]);

/** The 3PL's client and its own goods, stored and shipped for it and billed by its rate card. */
export const MERCHANT = { code: "ACME", name: "Acme Outdoor" };
const MERCHANT_GOODS = [
  ["Tent 2-person", 129],
  ["Sleeping bag", 69],
  ["Camping stove", 45],
  ["Trekking poles", 39],
  ["Water filter", 29],
  ["Camp chair", 35],
];

/** Bins of the main warehouse in walking order: aisle A up, aisle B down, aisle C up (the pick path). */
function mainBins() {
  const bins = [];
  for (const [aisleIndex, aisle] of ["A", "B", "C"].entries()) {
    const bays = [1, 2, 3, 4];
    if (aisleIndex % 2 === 1) bays.reverse();
    for (const bay of bays)
      for (const level of [1, 2])
        bins.push({ aisle, code: `${aisle}-${String(bay).padStart(2, "0")}-${level}`, bay, level });
  }
  return bins;
}
const EAST_BINS = ["E-01", "E-02", "E-03", "E-04", "E-05", "E-06"];

/** The products, kits and the merchant's goods; each stocked product has a home bin in each warehouse. */
export function demoCatalog() {
  const next = random(42);
  const bins = mainBins();
  const products = [];
  for (const [category, names] of Object.entries(CATEGORIES))
    for (const name of names)
      for (const size of ["", " (large)"]) {
        const n = products.length + 1;
        const price = Math.round((2 + next() * 60) * 100) / 100;
        products.push({
          sku: `${category.slice(0, 3).toUpperCase()}-${String(n).padStart(3, "0")}`,
          name: `${name}${size}`,
          // EAN-13 barcodes in the GS1 in-store range (prefix 200); cases in 201.
          barcode: ean13(`200${String(100_000_000 + n * 7919).slice(-9)}`),
          category,
          unit: "each",
          price,
          cost: Math.round(price * (0.45 + next() * 0.2) * 100) / 100,
          reorderPoint: 5 + Math.floor(next() * 21),
          tracking: LOTTED.has(category) ? "lot" : "none",
          ...(size === "" &&
            CASED.has(name) && {
              packagings: [
                {
                  code: "CASE12",
                  name: "Case of 12",
                  quantity: 12,
                  barcode: ean13(`201${String(n).padStart(9, "0")}`),
                },
              ],
            }),
        });
      }
  const merchantGoods = MERCHANT_GOODS.map(([name, price], i) => ({
    sku: `ACM-${String(i + 1).padStart(3, "0")}`,
    name,
    barcode: ean13(`202${String(i + 1).padStart(9, "0")}`),
    category: "Outdoor",
    unit: "each",
    price,
    cost: Math.round(price * 0.5 * 100) / 100,
    reorderPoint: 3,
    tracking: "none",
  }));
  const stocked = [...products, ...merchantGoods];
  const home = new Map(stocked.map((p, i) => [p.sku, `MAIN/${bins[i % bins.length].code}`]));
  const eastHome = new Map(stocked.map((p, i) => [p.sku, `EAST/${EAST_BINS[i % EAST_BINS.length]}`]));
  const bySku = new Map(stocked.map((p) => [p.sku, p]));
  const named = (name) => products.find((p) => p.name === name).sku;
  const kits = [
    {
      sku: "SET-001",
      name: "Kitchen starter set",
      price: 59,
      components: [
        { sku: named("Mug"), quantity: 2 },
        { sku: named("Teapot"), quantity: 1 },
        { sku: named("Whisk"), quantity: 1 },
      ],
    },
    {
      sku: "SET-002",
      name: "Desk set",
      price: 24,
      components: [
        { sku: named("Ballpoint pen"), quantity: 3 },
        { sku: named("Notebook A5"), quantity: 1 },
        { sku: named("Stapler"), quantity: 1 },
      ],
    },
  ];
  return { products, merchantGoods, kits, bins, home, eastHome, bySku };
}

const ADDRESSES = [
  { street: "1 Main St", city: "Springfield", zip: "62701", state: "IL", country: "US" },
  { street: "48 Elm Avenue", city: "Shelbyville", zip: "62565", state: "IL", country: "US" },
  { street: "7 Harbour Road", city: "Capital City", zip: "62702", state: "IL", country: "US" },
  { street: "230 Oak Lane", city: "Ogdenville", zip: "62703", state: "IL", country: "US" },
];
const SUPPLIERS = ["Acme Supply", "Northwind Traders", "Globex Wholesale"];
const customer = (n) => `0193a2b0-0000-7000-8000-${String(100 + n).padStart(12, "0")}`;

/**
 * Today's plan: `{ today, sections: [{ name, day, steps }], model, expected }`. A section's `day` is the UTC day
 * its rows are dated (the filler spreads a history day over that day's working hours; today's sections keep the
 * server's time). `model` is the stock the plan leaves; `expected` the counts the tenant then holds.
 */
export function demoPlan(today) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today) || addDays(today, 0) !== today)
    throw new Error(`not a day: ${today}`);
  const catalog = demoCatalog();
  const { products, merchantGoods, kits, home, eastHome, bySku } = catalog;
  const model = new StockModel();
  model.notSellable.add("MAIN/QUARANTINE");
  const next = random(7);
  const between = (low, high) => low + Math.floor(next() * (high - low + 1));
  const pick = (items) => items[Math.floor(next() * items.length)];
  const sections = [];
  let steps;
  /** History days whose work moves stock: the days the dashboard's movements chart shows. */
  const movementDays = [];
  const section = (name, day) => {
    steps = [];
    sections.push({ name, day, steps });
  };
  const call = (label, method, path, body, save) => steps.push({ label, method, path, body, save });
  const expected = { salesByStatus: {}, purchaseByStatus: {}, pickLists: 0, shipments: 0, labelled: 0 };
  const orders = new Map(); // key -> { kind, status, warehouse, units: [{ sku, quantity }], packing? }
  const setStatus = (order, status) => {
    const counts = order.kind === "sales" ? expected.salesByStatus : expected.purchaseByStatus;
    if (order.status) counts[order.status]--;
    counts[status] = (counts[status] ?? 0) + 1;
    order.status = status;
  };
  const kitOf = new Map(kits.map((kit) => [kit.sku, kit]));
  const lotted = (sku) => bySku.get(sku)?.tracking === "lot";
  const ownStocked = products.map((p) => p.sku);

  // --- Purchase orders ---------------------------------------------------------------------------------------
  let purchaseCount = 0;
  /** Lines `{ sku, quantity }` or `{ sku, packs }` (cases of 12); received into home bins when `receive`. */
  function purchase(lines, { day, warehouse = "MAIN", status = "received", expectedAt } = {}) {
    const key = `order:PO-${++purchaseCount}`;
    const order = { kind: "purchase", status: null, warehouse };
    orders.set(key, order);
    call(
      `purchase order ${key.slice(6)} (${lines.length} lines)`,
      "POST",
      "/orders/purchase",
      {
        supplier: pick(SUPPLIERS),
        warehouseId: `@warehouse:${warehouse}`,
        ...(expectedAt && { expectedAt }),
        lines: lines.map((line) => ({
          productId: `@product:${line.sku}`,
          ...(line.packs ? { packaging: "CASE12", packs: line.packs } : { quantity: line.quantity }),
          cost: bySku.get(line.sku).cost,
        })),
      },
      key,
    );
    setStatus(order, "draft");
    if (status === "draft") return;
    call(`order ${key.slice(6)}`, "PATCH", `/orders/{${key}}/status`, { status: "ordered" });
    setStatus(order, "ordered");
    if (status === "ordered") return;
    const lot = day.replaceAll("-", "").slice(2);
    call(`receipt of ${key.slice(6)}`, "POST", `/orders/{${key}}/receive`, {
      lines: lines.map((line) => {
        const quantity = line.packs ? line.packs * 12 : line.quantity;
        model.receive(line.sku, home.get(line.sku), quantity);
        return {
          lineId: `@line:${key}:${line.sku}`,
          quantity,
          locationId: `@location:${home.get(line.sku)}`,
          // A lot per product and delivery day; its expiry is after today, so no lot of the demo expires.
          ...(lotted(line.sku) && {
            lotNumber: `L${lot}-${line.sku.slice(-3)}`,
            expiresAt: addDays(today, between(12, 400)),
          }),
        };
      }),
    });
    setStatus(order, "received");
  }

  // --- Sales orders ------------------------------------------------------------------------------------------
  let salesCount = 0;
  /** Lines `{ sku, quantity }`, `{ sku, packs }` or a kit `{ sku: "SET-…", quantity }`; reserves or throws. */
  function sale(lines, { key = `order:S-${++salesCount}`, customerNo = between(1, 40) } = {}) {
    const units = [];
    for (const line of lines) {
      const kit = kitOf.get(line.sku);
      const quantity = line.packs ? line.packs * 12 : line.quantity;
      if (kit) for (const c of kit.components) units.push({ sku: c.sku, quantity: c.quantity * quantity });
      else units.push({ sku: line.sku, quantity });
    }
    for (const unit of units) model.reserve(unit.sku, "MAIN", unit.quantity);
    const order = { kind: "sales", status: null, warehouse: "MAIN", units, picked: false };
    orders.set(key, order);
    call(
      `sales order ${key.slice(6)}`,
      "POST",
      "/orders/sales",
      {
        customerId: customer(customerNo),
        warehouseId: "@warehouse:MAIN",
        lines: lines.map((line) => ({
          productId: `@product:${line.sku}`,
          ...(line.packs ? { packaging: "CASE12", packs: line.packs } : { quantity: line.quantity }),
          price: line.packs
            ? Math.round(bySku.get(line.sku).price * 12 * 0.9 * 100) / 100
            : (kitOf.get(line.sku) ?? bySku.get(line.sku)).price,
        })),
        shippingAddress: ADDRESSES[customerNo % ADDRESSES.length],
      },
      key,
    );
    setStatus(order, "pending");
    return key;
  }
  const move = (key, status, extra = {}) => {
    call(`order ${key.slice(6)} ${status}`, "PATCH", `/orders/{${key}}/status`, { status, ...extra });
    setStatus(orders.get(key), status);
  };
  const cancel = (key) => {
    for (const unit of orders.get(key).units) model.release(unit.sku, "MAIN", unit.quantity);
    move(key, "cancelled");
  };
  /** Ships everything by a status update (one dispatched shipment carrying the tracking number). */
  const shipByStatus = (key) => {
    const order = orders.get(key);
    for (const unit of order.units)
      model.ship(unit.sku, order.picked ? "MAIN/PACKING" : home.get(unit.sku), unit.quantity);
    move(key, "shipped", { trackingNumber: `1Z${String(between(1_000_000, 9_999_999))}` });
    expected.shipments++;
  };
  /** Orders that can be sold now: products of the tenant with `quantity` available. */
  const sellable = (quantity) => ownStocked.filter((sku) => model.available(sku, "MAIN") >= quantity + 2);

  let pickListCount = 0;
  /** A pick list of confirmed orders, then (when `picked`) every line picked as the list walks the bins. */
  function pickList(keys, { picked = true } = {}) {
    const key = `pick-list:PL-${++pickListCount}`;
    call(
      `pick list ${key.slice(10)}`,
      "POST",
      "/pick-lists",
      {
        warehouseId: "@warehouse:MAIN",
        orderIds: keys.map((k) => `@${k}`),
      },
      key,
    );
    expected.pickLists++;
    for (const k of keys) setStatus(orders.get(k), "picking");
    if (!picked) return;
    steps.push({ label: `picks of ${key.slice(10)}`, pick: key });
    for (const k of keys) {
      const order = orders.get(k);
      for (const unit of order.units) model.pick(unit.sku, home.get(unit.sku), "MAIN/PACKING", unit.quantity);
      order.picked = true;
    }
  }

  let shipmentCount = 0;
  /** A shipment of `packages` (each `{ sku: quantity }`), then its labels and its dispatch. */
  function shipment(orderKey, packages) {
    const key = `shipment:SH-${++shipmentCount}`;
    const order = orders.get(orderKey);
    call(
      `shipment ${key.slice(9)} of ${orderKey.slice(6)}`,
      "POST",
      `/orders/{${orderKey}}/shipments`,
      {
        carrier: "manual",
        packages: packages.map((contents, i) => ({
          packageType: i === 0 ? "box-m" : "box-s",
          weight: { value: Math.round((0.4 + next() * 4) * 100) / 100, unit: "kg" },
          dimensions: { length: 40, width: 30, height: i === 0 ? 30 : 15, unit: "cm" },
          lines: Object.entries(contents).map(([sku, quantity]) => {
            model.ship(sku, order.picked ? "MAIN/PACKING" : home.get(sku), quantity);
            return { orderLineId: `@line:${orderKey}:${sku}`, quantity };
          }),
        })),
      },
      key,
    );
    call(`labels of ${key.slice(9)}`, "POST", `/shipments/{${key}}/label`, {
      trackingNumbers: packages.map((_, i) => ({
        packageId: `@package:${key}:${i + 1}`,
        trackingNumber: `1Z${String(between(1_000_000, 9_999_999))}${i + 1}`,
      })),
    });
    call(`dispatch of ${key.slice(9)}`, "POST", `/shipments/{${key}}/dispatch`);
    expected.shipments++;
    expected.labelled++;
    return key;
  }
  /** Every unit of the order, by product (a kit's components appear as their own lines). */
  const allUnits = (key) => Object.fromEntries(orders.get(key).units.map((u) => [u.sku, u.quantity]));

  // --- The catalog -------------------------------------------------------------------------------------------
  section("catalog", null);
  call(
    "warehouse MAIN",
    "POST",
    "/warehouses",
    {
      code: "MAIN",
      name: "Main warehouse",
      address: { street: "12 Dock Road", city: "Springfield", zip: "62701", country: "US" },
    },
    "warehouse:MAIN",
  );
  call(
    "warehouse EAST",
    "POST",
    "/warehouses",
    {
      code: "EAST",
      name: "East depot",
      address: { street: "3 Rail Yard", city: "Shelbyville", zip: "62565", country: "US" },
    },
    "warehouse:EAST",
  );
  const location = (warehouse, body) =>
    call(
      `location ${warehouse}/${body.code}`,
      "POST",
      "/locations",
      { warehouseId: `@warehouse:${warehouse}`, ...body },
      `location:${warehouse}/${body.code}`,
    );
  location("MAIN", { code: "DOCK-IN", name: "Inbound dock", type: "dock" });
  location("MAIN", { code: "STAGE-OUT", name: "Outbound staging", type: "staging" });
  location("MAIN", {
    code: "QUARANTINE",
    name: "Quarantine (returns to inspect)",
    type: "shelf",
    sellable: false,
  });
  for (const aisle of ["A", "B", "C"])
    location("MAIN", { code: aisle, name: `Aisle ${aisle}`, type: "aisle" });
  for (const [i, bin] of catalog.bins.entries())
    location("MAIN", {
      code: bin.code,
      name: `Aisle ${bin.aisle}, bay ${bin.bay}, level ${bin.level}`,
      type: "bin",
      parentId: `@location:MAIN/${bin.aisle}`,
      pickSequence: (i + 1) * 10,
    });
  location("EAST", { code: "DOCK-IN", name: "Inbound dock", type: "dock" });
  for (const [i, code] of EAST_BINS.entries())
    location("EAST", { code, name: `East bay ${i + 1}`, type: "bin", pickSequence: (i + 1) * 10 });
  call(`merchant ${MERCHANT.code}`, "POST", "/merchants", MERCHANT, `merchant:${MERCHANT.code}`);
  const withoutPackagings = ({ packagings, ...product }) => product;
  call(`${products.length + merchantGoods.length} products`, "POST", "/products/batch", {
    products: [
      ...products.map(withoutPackagings),
      ...merchantGoods.map((p) => ({ ...p, merchantId: `@merchant:${MERCHANT.code}` })),
    ],
  });
  steps.push({ label: "the products' ids", products: true });
  // The batch writes stocked products only; packagings and kits are set one product at a time.
  for (const product of products.filter((p) => p.packagings))
    call(`packaging of ${product.sku}`, "PATCH", `/products/{product:${product.sku}}`, {
      packagings: product.packagings,
    });
  for (const kit of kits)
    call(
      `kit ${kit.sku}`,
      "POST",
      "/products",
      {
        sku: kit.sku,
        name: kit.name,
        category: "Sets",
        price: kit.price,
        type: "kit",
        components: kit.components.map((c) => ({ productId: `@product:${c.sku}`, quantity: c.quantity })),
      },
      `product:${kit.sku}`,
    );
  call("rate card of ACME", "POST", "/billing/rate-cards", {
    merchantId: `@merchant:${MERCHANT.code}`,
    currency: "USD",
    effectiveFrom: `${today.slice(0, 8)}01`,
    rates: [
      { activity: "storage", per: "unit_day", unitPrice: 0.02 },
      { activity: "receiving", per: "line", unitPrice: 0.5 },
      { activity: "receiving", per: "unit", unitPrice: 0.05 },
      { activity: "picking", per: "order", unitPrice: 1.2 },
      { activity: "picking", per: "line", unitPrice: 0.35 },
      { activity: "packing", per: "package", unitPrice: 0.9 },
      { activity: "returns", per: "return", unitPrice: 2.5 },
      { activity: "minimum", per: "month", unitPrice: 50 },
    ],
  });

  // --- Thirty days of history, oldest first ------------------------------------------------------------------
  for (let d = DAYS; d >= 1; d--) {
    const day = addDays(today, -d);
    const dow = weekday(day);
    const changesBefore = model.changes;
    section(day, day);
    if (d === DAYS) {
      // The opening delivery: every product of the tenant, into its home bin.
      purchase(
        products.map((p) =>
          p.packagings ? { sku: p.sku, packs: between(4, 6) } : { sku: p.sku, quantity: between(30, 70) },
        ),
        { day },
      );
    } else if (dow === 1 || dow === 4) {
      // Mondays and Thursdays a supplier restocks what runs low.
      const low = products
        .filter((p) => model.available(p.sku, "MAIN") < 2 * p.reorderPoint + 10)
        .slice(0, 40);
      if (low.length > 0)
        purchase(
          low.map((p) =>
            p.packagings ? { sku: p.sku, packs: between(2, 4) } : { sku: p.sku, quantity: between(24, 48) },
          ),
          { day },
        );
    }
    if (dow === 3) {
      // Wednesdays the east depot is replenished from the main warehouse.
      const candidates = ownStocked.filter((sku) => !lotted(sku) && model.movable(sku, home.get(sku)) >= 10);
      for (let n = 0; n < 2 && candidates.length > 0; n++) {
        const sku = candidates.splice(Math.floor(next() * candidates.length), 1)[0];
        const quantity = between(2, 6);
        model.take(sku, home.get(sku), quantity);
        model.receive(sku, eastHome.get(sku), quantity);
        call(`transfer of ${sku}`, "POST", "/inventory/transfers", {
          productId: `@product:${sku}`,
          fromLocationId: `@location:${home.get(sku)}`,
          toLocationId: `@location:${eastHome.get(sku)}`,
          quantity,
          notes: "Weekly replenishment of the east depot",
        });
      }
    }
    // The day's sales: none on Sundays, one on Saturdays, one to three on weekdays; all shipped the same day.
    const orderCount = dow === 0 ? 0 : dow === 6 ? 1 : between(1, 3);
    for (let n = 0; n < orderCount; n++) {
      const lines = [];
      if (next() < 0.12) {
        const kit = pick(kits);
        if (kit.components.every((c) => model.available(c.sku, "MAIN") >= c.quantity + 2))
          lines.push({ sku: kit.sku, quantity: 1 });
      }
      for (let l = between(1, 3); l > 0; l--) {
        // A product once per order, and never beside a kit of which it is a component: each line is one product.
        const taken = new Set(
          lines.flatMap((line) => [line.sku, ...(kitOf.get(line.sku)?.components ?? []).map((c) => c.sku)]),
        );
        const quantity = between(1, 4);
        const choices = sellable(quantity).filter((sku) => !taken.has(sku));
        if (choices.length > 0) lines.push({ sku: pick(choices), quantity });
      }
      if (lines.length === 0) continue;
      const key = sale(lines);
      if (next() < 0.08) cancel(key);
      else {
        shipByStatus(key);
        if (d > 6) move(key, "delivered");
      }
    }
    if (dow === 5) {
      // Fridays the damaged units found in the week are written off.
      const candidates = ownStocked.filter((sku) => !lotted(sku) && model.movable(sku, home.get(sku)) >= 5);
      const lines = [];
      for (let n = between(1, 2); n > 0 && candidates.length > 0; n--) {
        const sku = candidates.splice(Math.floor(next() * candidates.length), 1)[0];
        const quantity = between(1, 2);
        model.take(sku, home.get(sku), quantity);
        lines.push({
          sku,
          locationCode: home.get(sku).split("/")[1],
          warehouseCode: "MAIN",
          quantity: -quantity,
          reason: "damaged",
          notes: "Found damaged on the weekly walk",
        });
      }
      if (lines.length > 0)
        call("write-offs", "POST", "/inventory/adjustments/batch", { atomic: true, lines });
    }
    if (model.changes > changesBefore) movementDays.push(day);
  }

  // --- Today -------------------------------------------------------------------------------------------------
  // The webhook first, so today's work is delivered to the receiver `npm run dev` runs.
  section("today: webhook", today);
  call(
    "webhook to the local receiver",
    "POST",
    "/webhooks",
    {
      url: "@receiver",
      description: WEBHOOK_DESCRIPTION,
      events: [
        "order.created",
        "order.shipped",
        "shipment.dispatched",
        "pick_list.completed",
        "return.created",
        "return.received",
        "job.succeeded",
        "job.failed",
        "invoice.created",
      ],
    },
    "webhook:demo",
  );

  section("today: orders", today);
  const todayLine = (quantity, except = []) => {
    const sku = pick(sellable(quantity).filter((s) => !lotted(s) && !except.includes(s)));
    return { sku, quantity };
  };
  sale([todayLine(2)], { key: "order:T-PENDING" });
  const confirmed = sale([todayLine(1), todayLine(3)], { key: "order:T-CONFIRMED" });
  move(confirmed, "confirmed");
  const cancelled = sale([todayLine(2)], { key: "order:T-CANCELLED" });
  cancel(cancelled);
  const picking = sale([todayLine(2), todayLine(1)], { key: "order:T-PICKING" });
  move(picking, "confirmed");
  pickList([picking], { picked: false });
  // A wave of three orders picked together: one packed, one shipped in part, one (with a kit) shipped whole.
  const kit = kits[0];
  const packed = sale([todayLine(2)], { key: "order:T-PACKED" });
  const partial = sale([todayLine(3), todayLine(2)], { key: "order:T-PARTIAL" });
  const kitComponents = kit.components.map((c) => c.sku);
  const whole = sale([{ sku: kit.sku, quantity: 1 }, todayLine(1, kitComponents)], {
    key: "order:T-SHIPPED",
  });
  for (const key of [packed, partial, whole]) move(key, "confirmed");
  pickList([packed, partial, whole]);
  move(packed, "packed");
  const [first] = orders.get(partial).units;
  shipment(partial, [{ [first.sku]: first.quantity }]);
  setStatus(orders.get(partial), "partially_shipped");
  const wholeUnits = orders.get(whole).units;
  shipment(whole, [
    Object.fromEntries(wholeUnits.slice(0, 2).map((u) => [u.sku, u.quantity])),
    Object.fromEntries(wholeUnits.slice(2).map((u) => [u.sku, u.quantity])),
  ]);
  setStatus(orders.get(whole), "shipped");
  const delivered = sale([todayLine(1)], { key: "order:T-DELIVERED" });
  move(delivered, "confirmed");
  shipByStatus(delivered);
  move(delivered, "delivered");

  // The 3PL's client: its goods received, two orders picked in a wave and shipped, a return, the month's invoice.
  section("today: merchant ACME", today);
  purchase(
    merchantGoods.map((p) => ({ sku: p.sku, quantity: between(20, 40) })),
    { day: today },
  );
  const acme = (quantity) =>
    merchantGoods.filter((p) => model.available(p.sku, "MAIN") >= quantity).map((p) => p.sku);
  const [tent, bag] = acme(4);
  const m1 = sale(
    [
      { sku: tent, quantity: 3 },
      { sku: bag, quantity: 2 },
    ],
    { key: "order:M-1" },
  );
  const m2 = sale([{ sku: pick(acme(2).filter((s) => s !== tent && s !== bag)), quantity: 1 }], {
    key: "order:M-2",
  });
  for (const key of [m1, m2]) move(key, "confirmed");
  pickList([m1, m2]);
  shipment(m1, [allUnits(m1)]);
  shipment(m2, [allUnits(m2)]);
  for (const key of [m1, m2]) setStatus(orders.get(key), "shipped");
  call(
    "return of M-1",
    "POST",
    "/returns",
    {
      orderId: `@${m1}`,
      lines: [{ orderLineId: `@line:${m1}:${tent}`, quantity: 3, reason: "Arrived with a torn flysheet" }],
    },
    "return:R-1",
  );
  call("return R-1 authorized", "PATCH", "/returns/{return:R-1}/status", { status: "authorized" });
  // One unit back on the shelf, one to inspect in quarantine (on hand, never available), one scrapped.
  call("receipt of R-1", "POST", "/returns/{return:R-1}/receipts", {
    lines: [
      {
        returnLineId: `@line:return:R-1:${tent}`,
        quantity: 1,
        disposition: "restock",
        locationId: `@location:${home.get(tent)}`,
      },
      {
        returnLineId: `@line:return:R-1:${tent}`,
        quantity: 1,
        disposition: "quarantine",
        locationId: "@location:MAIN/QUARANTINE",
      },
      { returnLineId: `@line:return:R-1:${tent}`, quantity: 1, disposition: "scrap" },
    ],
  });
  model.receive(tent, home.get(tent), 1);
  model.receive(tent, "MAIN/QUARANTINE", 1);
  call("return R-1 closed", "PATCH", "/returns/{return:R-1}/status", { status: "closed" });
  call("invoice of ACME", "POST", "/billing/invoices", {
    merchantId: `@merchant:${MERCHANT.code}`,
    period: today.slice(0, 7),
  });

  section("today: purchase orders", today);
  const cased = products.filter((p) => p.packagings);
  purchase(
    [{ sku: cased[0].sku, packs: 5 }, ...products.slice(100, 103).map((p) => ({ sku: p.sku, quantity: 24 }))],
    { status: "ordered", expectedAt: `${addDays(today, 1)}T09:00:00.000Z` },
  );
  purchase(
    products.slice(20, 22).map((p) => ({ sku: p.sku, quantity: 10 })),
    { warehouse: "EAST", status: "draft" },
  );

  section("today: count and hold", today);
  // A count of two bins in progress: one product counted one short.
  const countBins = ["MAIN/A-01-1", "MAIN/A-01-2"];
  const counted = ownStocked.find(
    (sku) => !lotted(sku) && home.get(sku) === countBins[0] && model.onHandAt(sku, countBins[0]) > 1,
  );
  call(
    "count of A-01-1 and A-01-2",
    "POST",
    "/inventory/counts",
    { locationIds: countBins.map((b) => `@location:${b}`) },
    "count:C-1",
  );
  call(`count of ${counted}`, "PUT", "/inventory/counts/{count:C-1}/lines", {
    lines: [
      {
        productId: `@product:${counted}`,
        locationId: `@location:${countBins[0]}`,
        counted: model.onHandAt(counted, countBins[0]) - 1,
      },
    ],
  });
  const held = todayLine(3).sku;
  model.reserve(held, "MAIN", 3);
  call(`hold of ${held}`, "POST", "/inventory/holds", {
    productId: `@product:${held}`,
    quantity: 3,
    warehouseId: "@warehouse:MAIN",
    expiresAt: `${addDays(today, 3)}T17:00:00.000Z`,
    reference: "Showroom display",
  });

  // An import job: better descriptions for a dozen products, uploaded as CSV and run in the background.
  section("today: job", today);
  const described = products.slice(0, 12);
  steps.push({
    label: "upload of product descriptions",
    upload: `sku,description\n${described.map((p) => `${p.sku},"${p.name}: sturdy, tested, guaranteed for two years"`).join("\n")}\n`,
    save: "upload:descriptions",
  });
  call(
    "import job",
    "POST",
    "/jobs",
    { type: "product_import", uploadId: "@upload:descriptions" },
    "job:import",
  );
  steps.push({ label: "the import job's end", job: "job:import" });

  expected.products = products.length + merchantGoods.length + kits.length;
  expected.warehouses = 2;
  expected.merchants = 1;
  expected.returns = 1;
  expected.invoices = 1;
  expected.holds = 1;
  expected.counts = 1;
  expected.webhooks = 1;
  expected.jobs = 1;
  expected.movementDays = movementDays;
  return { today, sections, model, expected, catalog };
}

/** The demo webhook's description: the filler finds it by this to point it at this run's receiver. */
export const WEBHOOK_DESCRIPTION = "Demo receiver run by npm run dev";
