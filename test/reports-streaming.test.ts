import { exports } from "cloudflare:workers";
import { beforeAll, expect, it } from "vitest";
import { BASE, call } from "./support/http";
import { seedLocation, seedManyMovements, seedProduct, seedWarehouse } from "./support/report-fixtures";
import { createTenant, type TestTenant } from "./support/tenants";

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
  const response = await exports.default.fetch(
    new Request(`${BASE}/reports/stock-movements?from=2026-11-01&to=2026-11-30&format=csv`, {
      headers: tenant.admin,
    }),
  );
  expect(response.status).toBe(200);
  // X-D1-Stats is written when the response starts: by then only the first of 20 pages has been read.
  const calls = Number(/calls=(\d+)/.exec(response.headers.get("x-d1-stats") ?? "")?.[1]);
  expect(calls).toBeGreaterThan(0);
  expect(calls).toBeLessThan(COUNT / 500);
  const reader = response.body?.getReader();
  if (!reader) throw new Error("no body");
  const decoder = new TextDecoder();
  let text = "";
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks++;
    text += decoder.decode(value, { stream: true });
  }
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
  expect(json.body.data.totals).toEqual({ movements: COUNT, netDelta });
  expect(json.body.data.totalPages).toBe(COUNT / 20);
});
