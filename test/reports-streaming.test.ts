import { beforeAll, expect, it } from "vitest";
import {
  createTenant,
  seedLocation,
  seedManyMovements,
  seedProduct,
  seedStockedProducts,
  seedWarehouse,
  type TestTenant,
} from "./support/builders";
import { readStream } from "./support/csv";
import { BASE, call, fetchApi } from "./support/http";

// 10,000 ledger rows in one tenant: the CSV must contain every one, in order, and the response must start
// before the report has been read (the worker reads D1 a page at a time as the body is consumed;
// bench/reports.mjs records time and memory).
const COUNT = 10_000;
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await createTenant();
  const warehouseId = await seedWarehouse(tenant, "MAIN");
  const location = await seedLocation(tenant, warehouseId, "A1");
  const productId = await seedProduct(tenant, { sku: "BULK-1", name: "Bulk" });
  await seedManyMovements(tenant, productId, location, COUNT);
});

it("streams a CSV of 10,000 movements, every row once and in order, in many chunks", async () => {
  const response = await fetchApi(
    new Request(`${BASE}/reports/stock-movements?from=2026-11-01&to=2026-11-30&format=csv`, {
      headers: tenant.admin,
    }),
  );
  expect(response.status).toBe(200);
  // X-D1-Stats is written when the response starts: by then only the first of 20 pages has been read.
  const calls = Number(/calls=(\d+)/.exec(response.headers.get("x-d1-stats") ?? "")?.[1]);
  expect(calls).toBeGreaterThan(0);
  expect(calls).toBeLessThan(COUNT / 500);
  if (!response.body) throw new Error("no body");
  const { text, chunks } = await readStream(response.body);
  const lines = text.split("\r\n");
  expect(lines.pop()).toBe("");
  const [header, ...rows] = lines;
  expect(header?.split(",")[0]).toBe("createdAt");
  expect(rows).toHaveLength(COUNT);
  // Keyset paging neither skips nor repeats a row at page boundaries: the seeded ids are 0..9999 in order.
  const idColumn = header?.split(",").indexOf("id") ?? -1;
  rows.forEach((row, i) => {
    expect(row.split(",")[idColumn]).toBe(`00000000-0000-7000-8000-${String(i).padStart(12, "0")}`);
  });
  expect(rows[COUNT - 1]?.startsWith("2026-11-01T02:46:39.000Z,BULK-1,")).toBe(true);
  // The header, then at least one chunk per page of 500 rows (the paging itself is checked in reports-csv.test.ts).
  expect(chunks).toBeGreaterThanOrEqual(1 + COUNT / 500);

  // The JSON totals over the same range agree with the CSV's deltas.
  const json = await call("GET", "/reports/stock-movements?from=2026-11-01&to=2026-11-30", {
    headers: tenant.admin,
  });
  const deltaColumn = header?.split(",").indexOf("delta") ?? -1;
  const netDelta = rows.reduce((sum, row) => sum + Number(row.split(",")[deltaColumn]), 0);
  expect(json.body.data.totals).toMatchObject({ movements: COUNT, netDelta });
  expect(json.body.data.totalPages).toBe(COUNT / 20);
});

it("pages per-product reports by SKU range: every line once, and a range with nothing to report is not the end", async () => {
  // 1,200 products: the CSV reads them 500 SKUs at a time. P-0500..P-0999 hold 100 (not low),
  // the others 2 (low against a reorder point of 5), so the middle range of low-stock is empty.
  const bulk = await createTenant();
  const warehouseId = await seedWarehouse(bulk, "BULK");
  const location = await seedLocation(bulk, warehouseId, "B1");
  await seedStockedProducts(bulk, location, 1_200, (i) => (i >= 500 && i < 1_000 ? 100 : 2));
  const download = async (path: string) => {
    const res = await call("GET", `${path}?format=csv`, { headers: bulk.admin });
    expect(res.status).toBe(200);
    return String(res.body.data).split("\r\n").slice(1, -1);
  };
  const valuation = await download("/reports/inventory-valuation");
  expect(valuation).toHaveLength(1_200);
  expect(valuation.map((line) => line.split(",")[0])).toEqual(
    Array.from({ length: 1_200 }, (_, i) => `P-${String(i).padStart(4, "0")}`),
  );
  const lowStock = await download("/reports/low-stock");
  expect(lowStock.map((line) => line.split(",")[0])).toEqual(
    Array.from({ length: 1_200 }, (_, i) => i)
      .filter((i) => i < 500 || i >= 1_000)
      .map((i) => `P-${String(i).padStart(4, "0")}`),
  );
  const json = await call("GET", "/reports/inventory-valuation", { headers: bulk.admin });
  // 700 products x 2 + 500 x 100 units, each at cost 1
  expect(json.body.data.totals).toMatchObject({ onHand: 51_400, value: 51_400 });
});
