import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type TestTenant } from "./support/builders";
import { BASE, bearer, call, fetchApi } from "./support/http";
import { servedDocument } from "./support/openapi";

// The catalogue, the parameter rules and the response formats: none of this needs stock or orders.
let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const RANGE = "from=2026-11-01&to=2026-11-30";

describe("GET /reports", () => {
  it("lists every report type with its scopes, formats and parameters", async () => {
    const res = await call("GET", "/reports", { headers: tenant.admin });
    expect(res.status).toBe(200);
    const byType = Object.fromEntries(res.body.data.items.map((item) => [item.type, item]));
    expect(Object.keys(byType).sort()).toEqual([
      "inventory-valuation",
      "low-stock",
      "order-summary",
      "returns",
      "stock-movements",
    ]);
    expect(byType["inventory-valuation"]?.scopes).toEqual(["read:inventory", "read:products"]);
    expect(byType["low-stock"]?.scopes).toEqual(["read:inventory"]);
    expect(byType["stock-movements"]?.scopes).toEqual(["read:inventory"]);
    expect(byType["order-summary"]?.scopes).toEqual(["read:orders"]);
    expect(byType.returns?.scopes).toEqual(["read:orders"]);
    expect(byType["stock-movements"]?.path).toBe("/api/v1/reports/stock-movements");
    expect(byType["stock-movements"]?.formats).toEqual(["json", "csv"]);
    const required = byType["stock-movements"]?.parameters.filter((p) => p.required);
    expect(required?.map((p) => p.name)).toEqual(["from", "to"]);
    const pageSize = byType["low-stock"]?.parameters.find((p) => p.name === "pageSize");
    expect(pageSize).toEqual({
      name: "pageSize",
      required: false,
      description: "integer 1..100, default 20",
    });
    for (const item of res.body.data.items)
      for (const parameter of item.parameters) expect(parameter.description, parameter.name).not.toBe("");
  });

  it("names the same parameters as the OpenAPI document, with the same scopes in its security", async () => {
    const catalogue = await call("GET", "/reports", { headers: tenant.admin });
    const doc = await servedDocument();
    for (const report of catalogue.body.data.items) {
      const operation = doc.paths[report.path]?.get;
      expect(operation, report.type).toBeDefined();
      const documented = operation?.parameters?.filter((p) => p.in === "query").map((p) => p.name);
      expect(report.parameters.map((p) => p.name).sort(), report.type).toEqual(documented?.sort());
      expect(operation?.["x-required-scopes"], report.type).toEqual(report.scopes);
      expect(operation?.security, report.type).toEqual([
        { BearerAuth: report.scopes },
        { ApiKeyAuth: report.scopes },
      ]);
    }
  });

  it("needs a credential", async () => {
    expect((await call("GET", "/reports")).status).toBe(401);
    expect((await call("GET", "/reports/low-stock")).status).toBe(401);
    expect((await call("GET", "/reports/no-such-report")).status).toBe(401);
  });
});

describe("bad parameters are 400 in the envelope", () => {
  const cases: [string, RegExp][] = [
    ["/reports/no-such-report", /^type: must be one of/],
    ["/reports/stock-movements", /^from: /],
    ["/reports/stock-movements?from=2026-11-01", /^to: /],
    ["/reports/stock-movements?from=2026-13-01&to=2026-12-01", /^from: must be a date/],
    ["/reports/stock-movements?from=2026-02-30&to=2026-03-01", /^from: must be a date/],
    ["/reports/stock-movements?from=yesterday&to=2026-03-01", /^from: must be a date/],
    ["/reports/stock-movements?from=2026-11-01T10:00:00&to=2026-11-02", /^from: must be a date/],
    ["/reports/stock-movements?from=2026-11-30&to=2026-11-01", /^to: must not be before from/],
    ["/reports/stock-movements?from=2026-01-01&to=2027-01-02", /^to: the range must be at most 366 days/],
    ["/reports/order-summary?from=2025-01-01&to=2026-12-31", /^to: the range must be at most 366 days/],
    ["/reports/order-summary?from=2026-11-01&to=2026-11-30&type=returns", /^type: must be sales or purchase/],
    [`/reports/stock-movements?${RANGE}&productId=abc`, /^productId: must be a UUID/],
    [`/reports/stock-movements?${RANGE}&format=xlsx`, /^format: must be json or csv/],
    ["/reports/low-stock?pageSize=101", /^pageSize: /],
    ["/reports/inventory-valuation?warehouseId=42", /^warehouseId: must be a UUID/],
  ];
  for (const [path, message] of cases) {
    it(path, async () => {
      const res = await call("GET", path, { headers: tenant.admin });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, data: null });
      expect(res.body.errors).toEqual(expect.arrayContaining([expect.stringMatching(message)]));
    });
  }

  it("accepts a range of exactly 366 days, and date-times with a zone", async () => {
    const leapYear = await call("GET", "/reports/stock-movements?from=2024-01-01&to=2024-12-31", {
      headers: tenant.admin,
    });
    expect(leapYear.status).toBe(200);
    const instants = await call(
      "GET",
      "/reports/order-summary?from=2026-11-01T08:00:00Z&to=2026-11-02T08:00:00%2B02:00",
      { headers: tenant.admin },
    );
    expect(instants.status).toBe(200);
  });
});

describe("formats", () => {
  it("answers JSON in the envelope, paged, by default", async () => {
    const res = await call("GET", "/reports/inventory-valuation", { headers: tenant.admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      items: [],
      totalCount: 0,
      page: 1,
      pageSize: 20,
      totalPages: 0,
      asOf: null,
      basis: "Stock on hand now, valued at each product's current unit cost",
      totals: {
        onHand: 0,
        reserved: 0,
        expired: 0,
        available: 0,
        nonSellable: 0,
        value: 0,
        valueExact: "0",
        sellableValue: 0,
        sellableValueExact: "0",
        nonSellableValue: 0,
        nonSellableValueExact: "0",
        byWarehouse: [],
      },
    });
  });

  it("answers CSV as a download with a header row, even when there are no rows", async () => {
    const response = await fetchApi(
      new Request(`${BASE}/reports/stock-movements?${RANGE}&format=csv`, {
        headers: bearer(tenant.adminKey),
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="stock-movements-2026-11-01-2026-11-30.csv"',
    );
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const text = await response.text();
    expect(text.startsWith("createdAt,sku,productName,")).toBe(true);
    expect(text.split("\r\n")).toEqual([expect.any(String), ""]);
  });

  it("answers every report type in both formats", async () => {
    for (const path of [
      "/reports/inventory-valuation?",
      "/reports/low-stock?",
      `/reports/stock-movements?${RANGE}&`,
      `/reports/order-summary?${RANGE}&`,
      `/reports/returns?${RANGE}&`,
    ]) {
      const json = await call("GET", `${path}format=json`, { headers: tenant.admin });
      expect(json.status, path).toBe(200);
      const csv = await call("GET", `${path}format=csv`, { headers: tenant.admin });
      expect(csv.status, path).toBe(200);
      expect(csv.headers.get("content-type"), path).toBe("text/csv; charset=utf-8");
    }
  });
});
