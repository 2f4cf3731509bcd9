import { beforeAll, describe, expect, it } from "vitest";
import {
  createTenant,
  seedLevel,
  seedLocation,
  seedMovement,
  seedProduct,
  seedWarehouse,
  type TestTenant,
} from "./support/builders";
import { asCsvCells, csvObjects } from "./support/csv";
import { call } from "./support/http";

// A small known data set whose figures are worked out by hand below.
//   EAST (bins E1, E2), WEST (bin W1)
//   MUG-1  `Mug, "large"`        kitchen  cost 2.5     reorder 10   E1 4 (1 reserved), E2 3, W1 20 (5 reserved)
//   PEN-1  `=HYPERLINK("http://x")` office cost 0.3333  reorder 0    E1 9
//   BOX-1  Box                   kitchen  no cost      reorder 5    W1 2 (2 reserved)
//   OLD-1  Old (Inactive)        -        cost 1       reorder 100  E1 1
//   ZERO-1 Zero                  -        cost 1       reorder 0    E2 0
let tenant: TestTenant;
let other: TestTenant;
const ids: Record<string, string> = {};

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  ids.east = await seedWarehouse(tenant, "EAST");
  ids.west = await seedWarehouse(tenant, "WEST");
  const e1 = await seedLocation(tenant, ids.east, "E1");
  const e2 = await seedLocation(tenant, ids.east, "E2");
  const w1 = await seedLocation(tenant, ids.west, "W1");
  ids.e1 = e1.id;
  ids.mug = await seedProduct(tenant, {
    sku: "MUG-1",
    name: 'Mug, "large"',
    category: "kitchen",
    costE4: 25_000,
    reorderPoint: 10,
  });
  ids.pen = await seedProduct(tenant, {
    sku: "PEN-1",
    name: '=HYPERLINK("http://x")',
    category: "office",
    costE4: 3_333,
  });
  ids.box = await seedProduct(tenant, { sku: "BOX-1", name: "Box", category: "kitchen", reorderPoint: 5 });
  ids.old = await seedProduct(tenant, {
    sku: "OLD-1",
    name: "Old",
    costE4: 10_000,
    reorderPoint: 100,
    status: "Inactive",
  });
  ids.zero = await seedProduct(tenant, { sku: "ZERO-1", name: "Zero", costE4: 10_000 });
  await seedLevel(tenant, ids.mug, e1, 4, 1);
  await seedLevel(tenant, ids.mug, e2, 3);
  await seedLevel(tenant, ids.mug, w1, 20, 5);
  await seedLevel(tenant, ids.pen, e1, 9);
  await seedLevel(tenant, ids.box, w1, 2, 2);
  await seedLevel(tenant, ids.old, e1, 1);
  await seedLevel(tenant, ids.zero, e2, 0);

  // The ledger: two rows just outside 1..30 November, four inside.
  ids.m0 = await seedMovement(tenant, {
    productId: ids.mug,
    location: e1,
    delta: 100,
    reason: "received",
    createdAt: "2026-10-31T23:59:59.999Z",
  });
  ids.m1 = await seedMovement(tenant, {
    productId: ids.mug,
    location: e1,
    delta: 5,
    reason: "received",
    createdAt: "2026-11-01T00:00:00.000Z",
    notes: '@risk, "quoted"\nsecond line',
  });
  ids.m2 = await seedMovement(tenant, {
    productId: ids.mug,
    location: e1,
    delta: -1,
    reason: "damaged",
    createdAt: "2026-11-15T12:00:00.000Z",
    notes: "-1 dropped",
  });
  ids.m3 = await seedMovement(tenant, {
    productId: ids.mug,
    location: w1,
    delta: 20,
    reason: "received",
    createdAt: "2026-11-20T08:30:00.000Z",
  });
  ids.m4 = await seedMovement(tenant, {
    productId: ids.pen,
    location: e1,
    delta: 9,
    reason: "received",
    createdAt: "2026-11-30T23:59:59.999Z",
  });
  ids.m5 = await seedMovement(tenant, {
    productId: ids.pen,
    location: e1,
    delta: 1,
    reason: "received",
    createdAt: "2026-12-01T00:00:00.000Z",
  });

  // Another tenant with look-alike data: none of it may appear in the first tenant's reports.
  const otherWarehouse = await seedWarehouse(other, "EAST");
  const otherBin = await seedLocation(other, otherWarehouse, "E1");
  ids.otherWarehouse = otherWarehouse;
  ids.otherMug = await seedProduct(other, {
    sku: "MUG-1",
    name: "Other mug",
    costE4: 99_990,
    reorderPoint: 50,
  });
  await seedLevel(other, ids.otherMug, otherBin, 7);
  await seedMovement(other, {
    productId: ids.otherMug,
    location: otherBin,
    delta: 7,
    reason: "received",
    createdAt: "2026-11-10T00:00:00.000Z",
  });
});

const get = <P extends string>(path: P, who: TestTenant = tenant) =>
  call("GET", path, { headers: who.admin });
const csv = async (path: string, who: TestTenant = tenant) => {
  const res = await get(`${path}${path.includes("?") ? "&" : "?"}format=csv`, who);
  expect(res.status).toBe(200);
  return String(res.body.data);
};

/** The JSON items, every page of them, and the CSV must say the same thing. */
async function expectJsonAndCsvAgree(
  report: "/reports/inventory-valuation" | "/reports/low-stock" | "/reports/stock-movements",
  query = "",
) {
  const json = await get(`${report}?pageSize=100${query && `&${query}`}`);
  expect(json.status).toBe(200);
  const text = await csv(query ? `${report}?${query}` : report);
  const records = csvObjects(text);
  const headers = text.slice(0, text.indexOf("\r\n")).split(",");
  expect(records).toHaveLength(json.body.data.totalCount);
  expect(records).toEqual(
    json.body.data.items.map((item: Record<string, unknown>) => asCsvCells(item, headers)),
  );
  // Every JSON field is a CSV column (the CSV may not drop anything), but the `...Exact` decimal strings: a CSV
  // cell is text already, and the number's column carries every digit.
  for (const item of json.body.data.items) {
    const fields = Object.keys(item).filter((field) => !field.endsWith("Exact"));
    expect(headers.sort()).toEqual(fields.sort());
  }
}

describe("inventory-valuation", () => {
  it("values on hand x cost per product and warehouse, with exact totals", async () => {
    const res = await get("/reports/inventory-valuation");
    expect(res.status).toBe(200);
    const lines = res.body.data.items.map((r: Record<string, unknown>) => [
      r.sku,
      r.warehouseCode,
      r.onHand,
      r.unitCost,
      r.value,
    ]);
    expect(lines).toEqual([
      ["BOX-1", "WEST", 2, null, null], // no cost: no value
      ["MUG-1", "EAST", 7, 2.5, 17.5], // 4 + 3 in two bins
      ["MUG-1", "WEST", 20, 2.5, 50],
      ["OLD-1", "EAST", 1, 1, 1], // inactive products still have value
      ["PEN-1", "EAST", 9, 0.3333, 2.9997],
      // ZERO-1 has nothing on hand: no line
    ]);
    expect(res.body.data.totalCount).toBe(5);
    expect(res.body.data.totals).toEqual({
      onHand: 39,
      reserved: 8, // MUG-1 1 in E1 and 5 in W1, BOX-1 2 in W1
      expired: 0,
      nonSellable: 0,
      available: 31,
      value: 71.4997,
      valueExact: "71.4997", // 17.5 + 1 + 2.9997 + 50, summed as integer ten-thousandths
      sellableValue: 71.4997,
      sellableValueExact: "71.4997",
      nonSellableValue: 0,
      nonSellableValueExact: "0",
      byWarehouse: [
        {
          warehouseId: ids.east,
          warehouseCode: "EAST",
          onHand: 17,
          reserved: 1,
          expired: 0,
          nonSellable: 0,
          available: 16,
          value: 21.4997,
          valueExact: "21.4997",
          sellableValue: 21.4997,
          sellableValueExact: "21.4997",
          nonSellableValue: 0,
          nonSellableValueExact: "0",
        },
        {
          warehouseId: ids.west,
          warehouseCode: "WEST",
          onHand: 22,
          reserved: 7,
          expired: 0,
          nonSellable: 0,
          available: 15,
          value: 50,
          valueExact: "50",
          sellableValue: 50,
          sellableValueExact: "50",
          nonSellableValue: 0,
          nonSellableValueExact: "0",
        },
      ],
    });
  });

  it("filters by warehouse and by category; totals follow the filter, not the page", async () => {
    const west = await get(`/reports/inventory-valuation?warehouseId=${ids.west}`);
    expect(west.body.data.items.map((r: { sku: string }) => r.sku)).toEqual(["BOX-1", "MUG-1"]);
    expect(west.body.data.totals).toMatchObject({
      onHand: 22,
      reserved: 7,
      available: 15,
      value: 50,
      valueExact: "50",
    });
    const kitchen = await get("/reports/inventory-valuation?category=kitchen&pageSize=1&page=2");
    expect(kitchen.body.data).toMatchObject({ totalCount: 3, page: 2, pageSize: 1, totalPages: 3 });
    expect(kitchen.body.data.items).toMatchObject([{ sku: "MUG-1", warehouseCode: "EAST" }]);
    expect(kitchen.body.data.totals).toMatchObject({ onHand: 29, value: 67.5, valueExact: "67.5" });
  });

  it("says the same in JSON and CSV", async () => {
    await expectJsonAndCsvAgree("/reports/inventory-valuation");
  });

  it("escapes and neutralises text in the CSV", async () => {
    const text = await csv("/reports/inventory-valuation");
    expect(text.split("\r\n")[0]).toBe(
      "sku,productName,category,warehouseCode,onHand,expired,unitCost,value,nonSellable,sellableValue,nonSellableValue,productId,warehouseId",
    );
    expect(text).toContain(
      `MUG-1,"Mug, ""large""",kitchen,EAST,7,0,2.5,17.5,0,17.5,0,${ids.mug},${ids.east}\r\n`,
    );
    expect(text).toContain(`PEN-1,"'=HYPERLINK(""http://x"")",office,EAST,9,0,0.3333,2.9997,0,2.9997,0,`);
    expect(text).toContain(`BOX-1,Box,kitchen,WEST,2,0,,,0,,,${ids.box},${ids.west}\r\n`);
  });
});

describe("low-stock", () => {
  it("lists active products at or below their reorder point per warehouse, with the shortfall", async () => {
    const res = await get("/reports/low-stock");
    expect(res.status).toBe(200);
    expect(
      res.body.data.items.map((r: Record<string, unknown>) => [
        r.sku,
        r.warehouseCode,
        r.onHand,
        r.reserved,
        r.available,
        r.reorderPoint,
        r.shortfall,
      ]),
    ).toEqual([
      ["BOX-1", "WEST", 2, 2, 0, 5, 5],
      ["MUG-1", "EAST", 7, 1, 6, 10, 4], // WEST has 15 available: above 10, not listed
      ["ZERO-1", "EAST", 0, 0, 0, 0, 0], // at its reorder point of 0
      // OLD-1 is inactive; PEN-1 has 9 available over a reorder point of 0
    ]);
    expect(res.body.data.totalCount).toBe(3);
  });

  it("filters by warehouse and category, and agrees with its CSV", async () => {
    const east = await get(`/reports/low-stock?warehouseId=${ids.east}`);
    expect(east.body.data.items.map((r: { sku: string }) => r.sku)).toEqual(["MUG-1", "ZERO-1"]);
    const kitchen = await get("/reports/low-stock?category=kitchen");
    expect(kitchen.body.data.items.map((r: { sku: string }) => r.sku)).toEqual(["BOX-1", "MUG-1"]);
    await expectJsonAndCsvAgree("/reports/low-stock");
  });
});

describe("stock-movements", () => {
  const NOVEMBER = "from=2026-11-01&to=2026-11-30";

  it("lists the ledger inside the range, oldest first, with count and net change", async () => {
    const res = await get(`/reports/stock-movements?${NOVEMBER}`);
    expect(res.status).toBe(200);
    expect(res.body.data.items.map((r: { id: string }) => r.id)).toEqual([ids.m1, ids.m2, ids.m3, ids.m4]);
    expect(res.body.data.totals).toEqual({
      movements: 4,
      netDelta: 33, // 5 - 1 + 20 + 9
      byDay: [
        { day: "2026-11-01", movements: 1, unitsIn: 5, unitsOut: 0, netDelta: 5 },
        { day: "2026-11-15", movements: 1, unitsIn: 0, unitsOut: 1, netDelta: -1 },
        { day: "2026-11-20", movements: 1, unitsIn: 20, unitsOut: 0, netDelta: 20 },
        { day: "2026-11-30", movements: 1, unitsIn: 9, unitsOut: 0, netDelta: 9 },
      ],
    });
    expect(res.body.data.items[1]).toMatchObject({
      sku: "MUG-1",
      productName: 'Mug, "large"',
      warehouseCode: "EAST",
      locationCode: "E1",
      delta: -1,
      reason: "damaged",
      createdAt: "2026-11-15T12:00:00.000Z",
    });
  });

  it("takes date-times too: to is inclusive to the millisecond", async () => {
    const res = await get(
      "/reports/stock-movements?from=2026-11-15T12:00:00.000Z&to=2026-11-20T08:30:00.000Z",
    );
    expect(res.body.data.items.map((r: { id: string }) => r.id)).toEqual([ids.m2, ids.m3]);
  });

  it("filters by product, location, warehouse and reason, and pages", async () => {
    const ofIds = async (query: string) =>
      (await get(`/reports/stock-movements?${NOVEMBER}&${query}`)).body.data.items.map(
        (r: { id: string }) => r.id,
      );
    expect(await ofIds(`productId=${ids.pen}`)).toEqual([ids.m4]);
    expect(await ofIds(`locationId=${ids.e1}`)).toEqual([ids.m1, ids.m2, ids.m4]);
    expect(await ofIds(`warehouseId=${ids.west}`)).toEqual([ids.m3]);
    expect(await ofIds("reason=damaged")).toEqual([ids.m2]);
    expect(await ofIds("pageSize=3&page=2")).toEqual([ids.m4]);
  });

  it("says the same in JSON and CSV, with notes escaped and neutralised", async () => {
    await expectJsonAndCsvAgree("/reports/stock-movements", NOVEMBER);
    const text = await csv(`/reports/stock-movements?${NOVEMBER}`);
    expect(text).toContain(`,"'@risk, ""quoted""\nsecond line",`);
    expect(text).toContain(",-1,"); // a negative delta stays a number
    expect(text).toContain(",'-1 dropped,"); // a note starting with - is text
  });
});

describe("tenancy", () => {
  it("never shows another tenant's data, even asked for its ids", async () => {
    for (const path of [
      "/reports/inventory-valuation",
      "/reports/low-stock",
      "/reports/stock-movements?from=2026-11-01&to=2026-11-30",
    ]) {
      const json = JSON.stringify((await get(`${path}${path.includes("?") ? "&" : "?"}pageSize=100`)).body);
      expect(json, path).not.toContain(ids.otherMug);
      expect(json, path).not.toContain("Other mug");
      expect(await csv(path), path).not.toContain(ids.otherMug);
    }
    const foreign = await get(`/reports/inventory-valuation?warehouseId=${ids.otherWarehouse}`);
    expect(foreign.body.data).toMatchObject({
      items: [],
      totalCount: 0,
      totals: { onHand: 0, value: 0, valueExact: "0" },
    });
    const theirs = await get("/reports/inventory-valuation", other);
    expect(theirs.body.data.items).toMatchObject([
      { sku: "MUG-1", productName: "Other mug", onHand: 7, value: 69.993, valueExact: "69.993" },
    ]);
    const theirLedger = await get("/reports/stock-movements?from=2026-11-01&to=2026-11-30", other);
    expect(theirLedger.body.data.totals).toMatchObject({ movements: 1, netDelta: 7 });
  });
});
