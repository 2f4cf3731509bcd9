import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  newBins,
  scopedKey,
  type TestTenant,
  tenantWithWarehouse,
  unique,
} from "./support/builders";
import { checkedStockOf, levelsWithLedger, outboxEvents } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
let warehouseId: string;
beforeAll(async () => {
  ({ tenant, warehouseId } = await tenantWithWarehouse());
});

const batch = (body: Record<string, unknown>, headers: Record<string, string> = tenant.admin) =>
  call("POST", "/inventory/adjustments/batch", { headers, body });
const setLevel = (body: Record<string, unknown>, headers: Record<string, string> = tenant.admin) =>
  call("PUT", "/inventory/levels", { headers, body });
const setLevels = (body: Record<string, unknown>, headers: Record<string, string> = tenant.admin) =>
  call("POST", "/inventory/levels/batch", { headers, body });

/** `count` new products (one import) and a new bin: what the lines of a big batch name, by SKU and code. */
async function catalog(count: number) {
  const prefix = `B-${unique().toUpperCase()}`;
  const skus = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  const imported = await call("POST", "/products/import", {
    headers: tenant.admin,
    body: skus.map((sku) => ({ sku, name: `Item ${sku}` })),
  });
  expect(imported.status).toBe(200);
  const location = await createLocation(tenant, warehouseId);
  return { skus, locationCode: location.code, locationId: location.id };
}

/** The tenant's levels at a location, by SKU order of `skus` (the product ids are looked up by SKU). */
async function levelsAt(locationId: string) {
  return (await levelsWithLedger(tenant)).filter((l) => l.locationId === locationId);
}

const adjustedCount = async () => (await outboxEvents(tenant, /^inventory\.adjusted$/)).length;

describe.each([10, 1000])("a batch of %i adjustments keyed by SKU and location code", (size) => {
  let skus: string[];
  let locationCode: string;
  let locationId: string;
  beforeAll(async () => {
    ({ skus, locationCode, locationId } = await catalog(size));
    const stocked = await batch({
      lines: skus.map((sku) => ({ sku, locationCode, quantity: 5, reason: "received" })),
    });
    expect(stocked.status).toBe(200);
    expect(stocked.body.data).toMatchObject({ atomic: true, applied: size, failed: 0 });
    expect(stocked.body.data.results.every((r) => r.status === 201 && r.onHand === 5 && r.movementId)).toBe(
      true,
    );
  });

  it("atomic: one bad line changes nothing, and the 409 lists it with what is available", async () => {
    const before = await levelsAt(locationId);
    const events = await adjustedCount();
    const bad = size - 1;
    const res = await batch({
      lines: skus.map((sku, i) => ({ sku, locationCode, quantity: i === bad ? -6 : -1, reason: "pick" })),
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(`1 of ${size} lines cannot be applied; nothing was written`);
    expect(res.body.errors).toEqual([`lines[${bad}].quantity: Insufficient stock: requested 6, available 5`]);
    expect(await levelsAt(locationId)).toEqual(before);
    expect(await adjustedCount()).toBe(events);
  });

  it("per line: exactly the good lines are applied, each with its result", async () => {
    const bad = Math.floor(size / 2);
    const res = await batch({
      atomic: false,
      lines: skus.map((sku, i) => ({ sku, locationCode, quantity: i === bad ? -6 : -1, reason: "pick" })),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ atomic: false, applied: size - 1, failed: 1 });
    const { results } = res.body.data;
    expect(results[bad]).toEqual({
      status: 409,
      onHand: 5,
      errors: ["quantity: Insufficient stock: requested 6, available 5"],
    });
    expect(results.filter((r) => r.status === 201 && r.onHand === 4)).toHaveLength(size - 1);
    const levels = await levelsAt(locationId);
    expect(levels.map((l) => l.onHand).sort()).toEqual([...Array(size - 1).fill(4), 5].sort());
    for (const level of levels) expect(level.ledger).toBe(level.onHand);
  });
});

describe("batch adjustments", () => {
  it("write the ledger rows and inventory.adjusted events of single adjustments, and low stock once crossed", async () => {
    const product = await createProduct(tenant, { reorderPoint: 3 });
    const location = await createLocation(tenant, warehouseId);
    await adjustStock(tenant, product.id, location.id, 5);
    const res = await batch({
      lines: [
        { productId: product.id, locationId: location.id, quantity: -2, reason: "damaged", notes: "dropped" },
      ],
    });
    expect(res.status).toBe(200);
    const [line] = res.body.data.results;
    const movements = await call("GET", `/inventory/movements?productId=${product.id}`, {
      headers: tenant.admin,
    });
    expect(movements.body.data.items[0]).toMatchObject({
      id: line?.movementId,
      delta: -2,
      onHandAfter: 3,
      reason: "damaged",
      notes: "dropped",
      actorType: "api_key",
      requestId: res.headers.get("x-request-id"),
    });
    const adjusted = (await outboxEvents(tenant, /^inventory\.adjusted$/)).find(
      (e) => e.payload.movementId === line?.movementId,
    );
    expect(adjusted?.payload).toEqual({
      movementId: line?.movementId,
      productId: product.id,
      delta: -2,
      reason: "damaged",
      lotNumber: null,
      serialNumbers: null,
      stockLevel: {
        locationId: location.id,
        warehouseId,
        lotId: null,
        lotNumber: null,
        onHand: 3,
        reserved: 0,
        available: 3,
      },
    });
    const low = (await outboxEvents(tenant, /^inventory\.low_stock$/)).filter(
      (e) => e.payload.productId === product.id,
    );
    expect(low).toHaveLength(1);
    expect(low[0]?.payload).toMatchObject({ sku: product.sku, available: 3, reorderPoint: 3 });
  });

  it("take lots and serial numbers as single adjustments do, and refuse what a product's tracking forbids", async () => {
    const lotted = await createProduct(tenant, { tracking: "lot" });
    const serial = await createProduct(tenant, { tracking: "serial" });
    const plain = await createProduct(tenant);
    const location = await createLocation(tenant, warehouseId);
    const at = { locationCode: location.code, reason: "received" };
    const res = await batch({
      lines: [
        { ...at, sku: lotted.sku, quantity: 4, lotNumber: "L1", expiresAt: "2099-01-31" },
        { ...at, sku: serial.sku, quantity: 2, serialNumbers: ["S1", "S2"] },
      ],
    });
    expect(res.status).toBe(200);
    const levels = await checkedStockOf(tenant, lotted.id);
    expect(levels).toMatchObject([{ onHand: 4 }]);
    expect(levels[0]?.lotId).not.toBe("");
    const elsewhere = await createLocation(tenant, warehouseId);
    const refused = await batch({
      atomic: false,
      lines: [
        { ...at, sku: lotted.sku, quantity: 1 },
        { ...at, locationCode: elsewhere.code, sku: serial.sku, quantity: -1, serialNumbers: ["S2"] },
        { ...at, sku: plain.sku, quantity: 1, lotNumber: "X" },
        { ...at, sku: serial.sku, quantity: -1, serialNumbers: ["S1"] },
        { ...at, sku: serial.sku, quantity: 1, serialNumbers: ["S1"] },
      ],
    });
    expect(refused.status).toBe(200);
    expect(refused.body.data.results).toEqual([
      { status: 400, errors: [`lotNumber: product ${lotted.sku} is lot-tracked: name the lot`] },
      { status: 409, onHand: 0, errors: ["quantity: Insufficient stock: requested 1, available 0"] },
      { status: 400, errors: [`lotNumber: product ${plain.sku} is not lot-tracked`] },
      expect.objectContaining({ status: 201, onHand: 1 }),
      {
        status: 400,
        errors: ["stockLevel: named by line 3 already", "serialNumbers: S1 is named by line 3 already"],
      },
    ]);
    expect(await checkedStockOf(tenant, serial.id)).toMatchObject([{ onHand: 1 }]);
    const notThere = await batch({
      lines: [{ ...at, sku: serial.sku, quantity: -1, serialNumbers: ["S9"] }],
    });
    expect(notThere.status).toBe(409);
    expect(notThere.body.errors).toEqual([
      `lines[0].serialNumbers: S9 is not in stock at location ${location.code}`,
    ]);
  });

  it("atomic: every failing line is listed; unknown SKUs and codes (another tenant's ids too) are a 404", async () => {
    const { productId, locationId } = {
      productId: (await createProduct(tenant)).id,
      locationId: (await createLocation(tenant, warehouseId)).id,
    };
    const other = await createTenant();
    const res = await batch({
      lines: [
        { sku: "NO-SUCH-SKU", locationId, quantity: 1, reason: "x" },
        { productId, locationCode: "NO-SUCH-BIN", quantity: 1, reason: "x" },
        { productId, locationId, quantity: 1, reason: "x" },
      ],
    });
    expect(res.status).toBe(404);
    expect(res.body.errors).toEqual([
      "lines[0].sku: no product has SKU NO-SUCH-SKU",
      "lines[1].locationCode: no location has code NO-SUCH-BIN",
    ]);
    const foreign = await batch(
      { lines: [{ productId, locationId, quantity: 1, reason: "x" }] },
      other.admin,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors).toEqual([
      `lines[0].productId: product ${productId} not found`,
      `lines[0].locationId: location ${locationId} not found`,
    ]);
    expect(await checkedStockOf(tenant, productId)).toEqual([]);
  });

  it("a location code used in two warehouses needs the warehouse's code", async () => {
    const code = `DUP-${unique().toUpperCase()}`;
    const second = await call("POST", "/warehouses", {
      headers: tenant.admin,
      body: { code: `WH-${unique().toUpperCase()}`, name: "Second" },
    });
    await createLocation(tenant, warehouseId, { code });
    const there = await createLocation(tenant, second.body.data.id, { code });
    const { sku, id } = await createProduct(tenant);
    const ambiguous = await batch({ lines: [{ sku, locationCode: code, quantity: 1, reason: "x" }] });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.errors).toEqual([
      `lines[0].warehouseCode: location code ${code} is used in 2 warehouses; name the warehouse`,
    ]);
    const named = await batch({
      lines: [{ sku, locationCode: code, warehouseCode: second.body.data.code, quantity: 1, reason: "x" }],
    });
    expect(named.status).toBe(200);
    expect(await checkedStockOf(tenant, id)).toMatchObject([{ locationId: there.id, onHand: 1 }]);
  });

  it("validate the request whole: line shape, both or neither of sku and productId, 1 to 1,000 lines", async () => {
    const empty = await batch({ lines: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual(["lines: must have at least 1 line"]);
    const both = await batch({
      lines: [{ sku: "A", productId: crypto.randomUUID(), locationCode: "B", quantity: 0, reason: "x" }],
    });
    expect(both.status).toBe(400);
    expect(both.body.errors).toEqual(
      expect.arrayContaining([
        "lines[0].quantity: must not be zero",
        "lines[0].sku: give exactly one of sku and productId",
      ]),
    );
    const tooMany = await batch({
      lines: Array.from({ length: 1001 }, () => ({ sku: "A", locationCode: "B", quantity: 1, reason: "x" })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual(["lines: must have at most 1000 lines"]);
  });

  it("one Idempotency-Key covers the whole batch: a retry replays it and applies nothing twice", async () => {
    const { skus, locationCode, locationId } = await catalog(3);
    const body = { lines: skus.map((sku) => ({ sku, locationCode, quantity: 2, reason: "received" })) };
    const key = { ...tenant.admin, "idempotency-key": crypto.randomUUID() };
    const first = await batch(body, key);
    const again = await batch(body, key);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect((await levelsAt(locationId)).map((l) => l.onHand)).toEqual([2, 2, 2]);
  });

  it("401 without a credential, 403 without write:inventory", async () => {
    const body = { lines: [{ sku: "A", locationCode: "B", quantity: 1, reason: "x" }] };
    expect((await call("POST", "/inventory/adjustments/batch", { body })).status).toBe(401);
    const reader = await scopedKey(tenant, ["read:inventory", "write:products"]);
    expect((await batch(body, reader)).status).toBe(403);
    expect((await setLevels({ levels: [{ sku: "A", locationCode: "B", onHand: 1 }] }, reader)).status).toBe(
      403,
    );
    expect((await setLevel({ sku: "A", locationCode: "B", onHand: 1 }, reader)).status).toBe(403);
    expect((await call("PUT", "/inventory/levels", { body: {} })).status).toBe(401);
    expect((await call("POST", "/inventory/levels/batch", { body: {} })).status).toBe(401);
  });
});

describe("absolute stock (PUT /inventory/levels)", () => {
  it("set on hand: the difference is one ledger row (reason set) and an event; the same value writes nothing", async () => {
    const { id: productId, sku } = await createProduct(tenant);
    const location = await createLocation(tenant, warehouseId);
    const first = await setLevel({ sku, locationCode: location.code, onHand: 7 });
    expect(first.status).toBe(200);
    expect(first.body.data.movement).toMatchObject({ delta: 7, onHandAfter: 7, reason: "set" });
    expect(first.body.data.stockLevel).toMatchObject({ productId, onHand: 7, available: 7, sku });
    const lower = await setLevel({ productId, locationId: location.id, onHand: 3, expectedOnHand: 7 });
    expect(lower.body.data.movement).toMatchObject({ delta: -4, onHandAfter: 3, reason: "set" });
    const same = await setLevel({ sku, locationCode: location.code, onHand: 3 });
    expect(same.status).toBe(200);
    expect(same.body.data.movement).toBeNull();
    expect(same.body.data.stockLevel).toMatchObject({ onHand: 3 });
    expect(await checkedStockOf(tenant, productId)).toMatchObject([{ onHand: 3, ledger: 3 }]);
    const events = (await outboxEvents(tenant, /^inventory\.adjusted$/)).filter(
      (e) => e.payload.productId === productId,
    );
    expect(events.map((e) => [e.payload.delta, e.payload.reason])).toEqual([
      [7, "set"],
      [-4, "set"],
    ]);
  });

  it("two concurrent PUTs with the same expectedOnHand: exactly one wins, the other is a 409 with the current value", async () => {
    const { id: productId, sku } = await createProduct(tenant);
    const location = await createLocation(tenant, warehouseId);
    await adjustStock(tenant, productId, location.id, 10);
    const [a, b] = await Promise.all(
      [4, 6].map((onHand) => setLevel({ sku, locationCode: location.code, onHand, expectedOnHand: 10 })),
    );
    const statuses = [a?.status, b?.status].sort();
    expect(statuses).toEqual([200, 409]);
    const winner = a?.status === 200 ? a : b;
    const loser = a?.status === 200 ? b : a;
    const current = winner?.body.data.stockLevel?.onHand;
    expect(loser?.body.message).toBe(`expectedOnHand: on hand is ${current}, not 10; nothing changed`);
    expect(await checkedStockOf(tenant, productId)).toMatchObject([{ onHand: current, ledger: current }]);
  });

  it("refuse to set below what is reserved, or a stale expectedOnHand, changing nothing", async () => {
    const { id: productId, sku } = await createProduct(tenant);
    const location = await createLocation(tenant, warehouseId);
    await adjustStock(tenant, productId, location.id, 5);
    const held = await call("POST", "/inventory/holds", {
      headers: tenant.admin,
      body: { productId, quantity: 3, expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(held.status).toBe(201);
    const below = await setLevel({ sku, locationCode: location.code, onHand: 2 });
    expect(below.status).toBe(409);
    expect(below.body.message).toBe("onHand: 3 units here are reserved; on hand cannot be set below that");
    const stale = await setLevel({ sku, locationCode: location.code, onHand: 9, expectedOnHand: 4 });
    expect(stale.status).toBe(409);
    expect(stale.body.errors).toEqual(["expectedOnHand: on hand is 5, not 4; nothing changed"]);
    expect(await checkedStockOf(tenant, productId)).toMatchObject([{ onHand: 5, reserved: 3 }]);
    const foreign = await setLevel(
      { productId, locationId: location.id, onHand: 1 },
      (await createTenant()).admin,
    );
    expect(foreign.status).toBe(404);
  });

  it("a lot-tracked product's level names its lot; a new lot number is created; serial-tracked products are refused", async () => {
    const lotted = await createProduct(tenant, { tracking: "lot" });
    const serial = await createProduct(tenant, { tracking: "serial" });
    const location = await createLocation(tenant, warehouseId);
    const missing = await setLevel({ sku: lotted.sku, locationCode: location.code, onHand: 2 });
    expect(missing.status).toBe(400);
    const set = await setLevel({ sku: lotted.sku, locationCode: location.code, onHand: 2, lotNumber: "N1" });
    expect(set.status).toBe(200);
    expect(set.body.data.stockLevel).toMatchObject({ lotNumber: "N1", onHand: 2 });
    const serialSet = await setLevel({ sku: serial.sku, locationCode: location.code, onHand: 1 });
    expect(serialSet.status).toBe(400);
    expect(serialSet.body.message).toBe(
      `onHand: product ${serial.sku} is serial-tracked: adjust it naming serial numbers`,
    );
  });
});

describe("POST /inventory/levels/batch", () => {
  it("atomic: one stale expectedOnHand changes nothing; per line: the others are set", async () => {
    const { skus, locationCode, locationId } = await catalog(10);
    const levels = skus.map((sku, i) => ({ sku, locationCode, onHand: i + 1, expectedOnHand: 0 }));
    expect((await setLevels({ levels })).status).toBe(200);
    const again = skus.map((sku, i) => ({
      sku,
      locationCode,
      onHand: 20,
      expectedOnHand: i === 4 ? 99 : i + 1,
    }));
    const refused = await setLevels({ levels: again });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual(["levels[4].expectedOnHand: on hand is 5, not 99; nothing changed"]);
    expect((await levelsAt(locationId)).map((l) => l.onHand).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    const perLine = await setLevels({ atomic: false, levels: again });
    expect(perLine.body.data).toMatchObject({ applied: 9, failed: 1 });
    expect(perLine.body.data.results[4]).toEqual({
      status: 409,
      onHand: 5,
      errors: ["expectedOnHand: on hand is 5, not 99; nothing changed"],
    });
    expect((await levelsAt(locationId)).map((l) => l.onHand).sort((a, b) => a - b)).toEqual(
      [...Array(9).fill(20), 5].sort((a, b) => a - b),
    );
  });

  it("1,000 levels in one batch", async () => {
    const { skus, locationCode, locationId } = await catalog(1000);
    const res = await setLevels({ levels: skus.map((sku, i) => ({ sku, locationCode, onHand: i % 7 })) });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ applied: 1000, failed: 0 });
    const levels = await levelsAt(locationId);
    expect(levels.reduce((sum, l) => sum + l.onHand, 0)).toBe(skus.reduce((sum, _, i) => sum + (i % 7), 0));
    for (const level of levels) expect(level.ledger).toBe(level.onHand);
  });
});

describe("random batches", () => {
  it("after any batch of adjustments and sets: ledger = onHand, nothing negative, atomic batches all or nothing", async () => {
    const product = await createProduct(tenant);
    const bins = await newBins(tenant, warehouseId, 4);
    const line = fc.oneof(
      fc.record({
        kind: fc.constant("adjust" as const),
        at: fc.nat(3),
        quantity: fc.integer({ min: -6, max: 6 }).filter((q) => q !== 0),
      }),
      fc.record({ kind: fc.constant("set" as const), at: fc.nat(3), onHand: fc.nat(9), cas: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.uniqueArray(line, { minLength: 1, maxLength: 4, selector: (l) => l.at }),
        async (atomic, lines) => {
          const before = new Map(
            (await checkedStockOf(tenant, product.id)).map((l) => [l.locationId, l.onHand]),
          );
          const onHandAt = (at: number) => before.get(bins[at] as string) ?? 0;
          const adjust = lines.map((l) =>
            l.kind === "adjust"
              ? { productId: product.id, locationId: bins[l.at], quantity: l.quantity, reason: "property" }
              : null,
          );
          const res =
            lines[0]?.kind === "adjust"
              ? await batch({ atomic, lines: adjust.filter(Boolean) })
              : await setLevels({
                  atomic,
                  levels: lines.flatMap((l) =>
                    l.kind === "set"
                      ? [
                          {
                            productId: product.id,
                            locationId: bins[l.at],
                            onHand: l.onHand,
                            ...(l.cas ? { expectedOnHand: onHandAt(l.at) } : {}),
                          },
                        ]
                      : [],
                  ),
                });
          const sent = lines.filter((l) => l.kind === lines[0]?.kind);
          // Expected outcome per line, from the stock before: a removal needs what is there.
          const ok = sent.map((l) => (l.kind === "adjust" ? onHandAt(l.at) + l.quantity >= 0 : true));
          const after = new Map(
            (await checkedStockOf(tenant, product.id)).map((l) => [l.locationId, l.onHand]),
          );
          if (atomic && ok.includes(false)) {
            expect(res.status).toBe(409);
            expect(after).toEqual(before);
            return;
          }
          expect(res.status).toBe(200);
          sent.forEach((l, i) => {
            expect(res.body.data.results[i]?.status).toBe(
              ok[i] ? (l.kind === "set" && l.onHand === onHandAt(l.at) ? 200 : 201) : 409,
            );
            const expected = !ok[i]
              ? onHandAt(l.at)
              : l.kind === "adjust"
                ? onHandAt(l.at) + l.quantity
                : l.onHand;
            expect(after.get(bins[l.at] as string) ?? 0).toBe(expected);
          });
        },
      ),
      { numRuns: 30 },
    );
  });
});
