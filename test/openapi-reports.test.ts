import { beforeAll, describe, expect, it } from "vitest";
import { reportPath, reportTypes } from "../src/reports/catalogue";
import { createTenant, stockedProduct, type TestTenant } from "./support/builders";
import { parseCsv } from "./support/csv";
import { BASE, bearer, fetchApi } from "./support/http";
import { type OpenApiDocument, requestRefusal, servedDocument } from "./support/openapi";

// Issue 27 item 15: a report answers JSON or CSV as `format` asks, and the CSV products import takes `text/csv`;
// the document declares both media types, the CSV's columns and its download header, and real answers match it.
// (fetchApi checks each answer's status, media type and headers against the document on the way.)

interface MediaTypes {
  content: Record<string, { schema?: { type?: string; example?: string } }>;
  headers?: Record<string, unknown>;
}

let doc: OpenApiDocument;
let tenant: TestTenant;
beforeAll(async () => {
  doc = await servedDocument();
  tenant = await createTenant();
  await stockedProduct(tenant, 3, { product: { reorderPoint: 5 } });
});

const RANGE = "from=2020-01-01&to=2020-12-31";
const reports = Object.values(reportTypes).map((report) => ({
  ...report,
  query: ["stock-movements", "order-summary", "returns"].includes(report.type) ? `?${RANGE}&` : "?",
}));

const answers = (type: string) =>
  doc.paths[`/api/v1${reportPath(type)}`]?.get?.responses["200"] as MediaTypes;

const get = (path: string) => fetchApi(new Request(`${BASE}${path}`, { headers: bearer(tenant.adminKey) }));

describe("reports in the document", () => {
  it.each(reports)("$type declares its JSON and its CSV answer, with the CSV's columns", (report) => {
    const ok = answers(report.type);
    expect(Object.keys(ok.content).sort()).toEqual(["application/json", "text/csv"]);
    expect(ok.content["text/csv"]?.schema).toMatchObject({
      type: "string",
      example: expect.stringMatching(/\r\n$/),
    });
    expect(Object.keys(ok.headers ?? {})).toContain("Content-Disposition");
  });

  it.each(reports)(
    "$type answers each format with the media type and columns the document gives",
    async (report) => {
      const path = `${reportPath(report.type)}${report.query}`;
      const json = await get(`${path}format=json`);
      expect(json.status).toBe(200);
      expect(json.headers.get("content-type")).toMatch(/^application\/json/);
      expect(json.headers.get("content-disposition")).toBeNull();
      const csv = await get(`${path}format=csv`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
      expect(csv.headers.get("content-disposition")).toMatch(
        new RegExp(`^attachment; filename="${report.type}-.+\\.csv"$`),
      );
      const [header] = parseCsv(await csv.text());
      const documented = parseCsv(answers(report.type).content["text/csv"]?.schema?.example ?? "")[0];
      expect(header).toEqual(documented);
    },
  );
});

describe("the CSV products import in the document", () => {
  it("declares text/csv beside JSON, and a CSV body the document accepts is imported", async () => {
    const body = doc.paths["/api/v1/products/import"]?.post?.requestBody;
    expect(Object.keys(body?.content ?? {}).sort()).toEqual(["application/json", "text/csv"]);
    const sku = `CSV-${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
    const request = () =>
      new Request(`${BASE}/products/import`, {
        method: "POST",
        headers: { ...bearer(tenant.adminKey), "content-type": "text/csv" },
        body: `sku,name,price\n${sku},Imported by CSV,1.5\n`,
      });
    expect(await requestRefusal(request())).toBeUndefined();
    const imported = await fetchApi(request());
    expect(imported.status).toBe(200);
    expect(((await imported.json()) as { data: unknown }).data).toMatchObject({ rows: 1, created: 1 });
  });
});
