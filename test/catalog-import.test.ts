import { beforeAll, describe, expect, it } from "vitest";
import { createProduct, createTenant, scopedKey, type TestTenant } from "./support/builders";
import { outboxEvents } from "./support/database";
import { BASE, call, fetchApi } from "./support/http";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const importJson = (rows: unknown, query = "", t = tenant) =>
  call("POST", `/products/import${query}`, { headers: t.admin, body: rows });
const importCsv = (csv: string, query = "", t = tenant) =>
  call("POST", `/products/import${query}`, {
    headers: { ...t.admin, "content-type": "text/csv" },
    body: csv,
  });
const countProducts = async (t: TestTenant) =>
  (await call("GET", "/products?pageSize=1", { headers: t.admin })).body.data.totalCount;
const eventTypes = async (t: TestTenant) => (await outboxEvents(t)).map((event) => event.type);

/** The import was refused (400) naming `errors`, and `t` still holds only its `products` products: none of the file's. */
async function expectRefused(
  res: Awaited<ReturnType<typeof importJson>>,
  errors: string[],
  t: TestTenant,
  products: number,
) {
  expect(res.status).toBe(400);
  expect(res.body.errors).toEqual(errors);
  expect(await countProducts(t)).toBe(products);
}

describe("product import", () => {
  it("imports a JSON array and a CSV (quoted fields), with one event per product", async () => {
    const t = await createTenant();
    const json = await importJson(
      [
        { sku: "J-1", name: "One", price: 1.5 },
        { sku: "J-2", name: "Two", barcode: "222" },
      ],
      "",
      t,
    );
    expect(json.status).toBe(200);
    expect(json.body.data).toEqual({ dryRun: false, rows: 2, created: 2, updated: 0 });
    const csv = await importCsv(
      'sku,name,price,category\nC-1,"Crate, large",12.25,boxes\r\nC-2,"Say ""hi""",0.5,\n',
      "",
      t,
    );
    expect(csv.body.errors).toBeNull();
    expect(csv.body).toMatchObject({ data: { created: 2 } });
    const list = (await call("GET", "/products?sort=sku", { headers: t.admin })).body.data;
    expect(list.totalCount).toBe(4);
    expect(list.items[0]).toMatchObject({
      sku: "C-1",
      name: "Crate, large",
      price: 12.25,
      category: "boxes",
    });
    expect(list.items[1]).toMatchObject({ sku: "C-2", name: 'Say "hi"', category: null });
    expect(await outboxEvents(t, /^product\.created$/)).toHaveLength(4);
    expect((await call("GET", "/products?search=large", { headers: t.admin })).body.data.totalCount).toBe(1);
  });

  it("dry run validates and writes nothing", async () => {
    const t = await createTenant();
    const res = await importJson([{ sku: "D-1", name: "Dry" }], "?dryRun=true", t);
    expect(res.body.data).toEqual({ dryRun: true, rows: 1, created: 1, updated: 0 });
    expect(await countProducts(t)).toBe(0);
    expect(await eventTypes(t)).toEqual([]);
  });

  it("one bad row among good ones writes nothing and names every problem by row", async () => {
    const t = await createTenant();
    await createProduct(t, { sku: "TAKEN", barcode: "999" });
    const res = await importJson(
      [
        { sku: "OK-1", name: "Fine" },
        { name: "No sku" },
        { sku: "OK-1", name: "Duplicate in file" },
        { sku: "TAKEN", name: "Exists" },
        { sku: "OK-5", name: "Barcode clash", barcode: "999" },
      ],
      "",
      t,
    );
    await expectRefused(
      res,
      [
        "row 2: sku: SKU is required",
        "row 3: sku: OK-1 duplicates row 1",
        "row 4: sku: TAKEN already exists",
        "row 5: barcode: 999 already belongs to TAKEN",
      ],
      t,
      1,
    );
    expect(await eventTypes(t)).toEqual(["product.created"]); // the stored product's own, none from the import
  });

  it("reads a CSV's status and tracking in any case (a spreadsheet's active) and names the values for anything else", async () => {
    const t = await createTenant();
    const csv =
      "sku,name,status,tracking\r\nLC-1,Lower,active,Lot\r\nLC-2,Upper,INACTIVE,\r\nLC-3,Spaced, Inactive ,\r\n";
    const res = await importCsv(csv, "", t);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = await call("GET", "/products?sort=sku&pageSize=10", { headers: t.admin });
    expect(
      list.body.data.items.map((p: { sku: string; status: string; tracking: string }) => [
        p.sku,
        p.status,
        p.tracking,
      ]),
    ).toEqual([
      ["LC-1", "Active", "lot"],
      ["LC-2", "Inactive", "none"],
      ["LC-3", "Inactive", "none"],
    ]);
    await expectRefused(
      await importCsv("sku,name,status\r\nLC-4,Retired,retired\r\n", "", t),
      ["row 1: status: must be Active or Inactive"],
      t,
      3,
    );
  });

  it("reads CSV numbers only as decimals: a hex, binary or infinite cost is a 400, not 16, 3 or a bound", async () => {
    const t = await createTenant();
    const res = await importCsv(
      "sku,name,cost,price,reorderPoint\nN-1,a,0x10,1,1\nN-2,b,1,0b11,1\nN-3,c,Infinity,1,1\nN-4,d,12.5,1e3,+7\n",
      "",
      t,
    );
    await expectRefused(
      res,
      ["row 1: cost: must be a number", "row 2: price: must be a number", "row 3: cost: must be a number"],
      t,
      0,
    );
    const ok = await importCsv("sku,name,cost,price,reorderPoint\nN-4,d,12.5,1e3,+7\n", "", t);
    expect(ok.status).toBe(200);
    const [product] = (await call("GET", "/products?search=N-4", { headers: t.admin })).body.data.items;
    expect(product).toMatchObject({ cost: 12.5, price: 1000, reorderPoint: 7 });
  });

  it("upsert updates by sku and creates the rest", async () => {
    const t = await createTenant();
    const existing = await createProduct(t, { sku: "U-1", name: "Before", price: 1 });
    const res = await importCsv("sku,name,price\nU-1,After,2\nU-2,New,3\n", "?mode=upsert", t);
    expect(res.body.data).toEqual({ dryRun: false, rows: 2, created: 1, updated: 1 });
    const got = await call("GET", `/products/${existing.id}`, { headers: t.admin });
    expect(got.body.data).toMatchObject({ name: "After", price: 2 });
    expect(got.headers.get("etag")).toBe('"v2"');
    expect((await eventTypes(t)).sort()).toEqual(["product.created", "product.created", "product.updated"]);
  });

  it("takes 5,000 rows in one import and refuses 5,001", async () => {
    const t = await createTenant();
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      sku: `BULK-${i}`,
      name: `Bulk ${i}`,
      price: i / 100,
    }));
    const res = await importJson(rows, "", t);
    expect(res.body.data).toMatchObject({ created: 5000 });
    expect((await call("GET", "/products", { headers: t.admin })).body.data.totalCount).toBe(5000);
    const tooMany = await importJson([...rows, { sku: "ONE-MORE", name: "x" }], "?mode=upsert", t);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual(["body: at most 5000 rows per import"]);
  });

  it("refuses a body that is not an array, an empty CSV and bad modes; needs write:products", async () => {
    expect((await importJson({ sku: "x" })).status).toBe(400);
    expect((await importCsv("")).status).toBe(400);
    expect((await importJson([{ sku: "x", name: "y" }], "?mode=merge")).status).toBe(400);
    const reader = await scopedKey(tenant, ["read:products"]);
    expect((await call("POST", "/products/import", { headers: reader, body: [] })).status).toBe(403);
  });
});

// The CSV reader refuses what it cannot read, naming the line, and writes nothing (issue #44): an unclosed quote
// swallowed the next rows into one cell with 200; duplicate headers, bytes that are not UTF-8 and charset=utf-16 passed.
describe("product import of a CSV it cannot read", () => {
  const bytesOf = (...parts: (string | number[])[]) =>
    new Uint8Array(
      parts.flatMap((part) => (typeof part === "string" ? [...new TextEncoder().encode(part)] : part)),
    );
  const importBytes = async (bytes: Uint8Array, contentType: string) => {
    const response = await fetchApi(
      new Request(`${BASE}/products/import`, {
        method: "POST",
        headers: { ...tenant.admin, "content-type": contentType },
        body: bytes,
      }),
    );
    return { status: response.status, body: (await response.json()) as { errors?: string[] } };
  };

  it("an unclosed quote is a 400 naming its line; no row is written", async () => {
    const before = await countProducts(tenant);
    const res = await importCsv('sku,name\nUQ-1,Fine\nUQ-2,"Unclosed\nUQ-3,Beta\nUQ-4,Gamma\n');
    await expectRefused(
      res,
      ["body: line 3: a quote opened on line 3 is never closed (every line after it was read into one cell)"],
      tenant,
      before,
    );
  });

  it("text after a closing quote, or more cells than the header names, is a 400 naming the line", async () => {
    const before = await countProducts(tenant);
    const res = await importCsv('sku,name\r\nTQ-1,"Mug" large\r\nTQ-2,Two,extra\r\nTQ-3,"Fine, quoted"\r\n');
    await expectRefused(
      res,
      [
        'body: line 2: text after the closing quote of cell 2 (quote it whole, with "" for a quote)',
        "body: line 3: 3 cells, but the header names 2 columns",
      ],
      tenant,
      before,
    );
  });

  it("a header naming a column twice is a 400 naming line 1", async () => {
    const before = await countProducts(tenant);
    const res = await importCsv("sku,name,name\nDH-1,First,Second\n");
    await expectRefused(res, ["body: line 1: the header names the column name twice"], tenant, before);
  });

  it("bytes that are not UTF-8 are a 400 naming their line, in a CSV and in a JSON body", async () => {
    const before = await countProducts(tenant);
    const csv = await importBytes(bytesOf("sku,name\nU8-1,Fine\nU8-2,Caf", [0xe9], "\n"), "text/csv");
    expect(csv.status).toBe(400);
    expect(csv.body.errors).toEqual(["body: line 3: is not valid UTF-8"]);
    const json = await importBytes(
      bytesOf('[{"sku":"U8-3",\n"name":"Caf', [0xc3], '"}]'),
      "application/json",
    );
    expect(json.status).toBe(400);
    expect(json.body.errors).toEqual(["body: line 2: is not valid UTF-8"]);
    // U+FFFD sent as itself is a character like any other.
    const replacement = await importBytes(bytesOf("sku,name\nU8-4,Caf\uFFFD\n"), "text/csv");
    expect(replacement.status).toBe(200);
    expect(await countProducts(tenant)).toBe(before + 1);
  });

  it("a charset other than UTF-8 is a 415", async () => {
    const before = await countProducts(tenant);
    for (const contentType of [
      "text/csv; charset=utf-16",
      'text/csv; charset="ISO-8859-1"',
      "application/json; charset=utf-16le",
    ]) {
      const res = await importBytes(bytesOf("sku,name\nCS-1,One\n"), contentType);
      expect(res.status, contentType).toBe(415);
    }
    expect((await importBytes(bytesOf("sku,name\nCS-2,Two\n"), "text/csv; charset=UTF-8")).status).toBe(200);
    expect(await countProducts(tenant)).toBe(before + 1);
  });
});
