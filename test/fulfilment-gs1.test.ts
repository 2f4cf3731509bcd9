import { beforeAll, describe, expect, it } from "vitest";
import { gs1CheckDigit } from "../src/gs1/check-digit";
import { gtinProblem } from "../src/gs1/gtin";
import { INTERNAL_COMPANY_PREFIX, sscc, ssccOf } from "../src/gs1/sscc";
import {
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  receiveLot,
  scopedKey,
  seedProduct,
  type TestTenant,
  unique,
} from "./support/builders";
import { tenantDatabase } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
let other: TestTenant;
beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
});

describe("GS1 check digits", () => {
  it("accepts published GTINs of every length and names the right digit for a wrong one", () => {
    for (const valid of ["96385074", "036000291452", "4006381333931", "10614141000415"]) {
      expect(gtinProblem(valid)).toBeNull();
    }
    expect(gtinProblem("4006381333932")).toBe(
      "4006381333932 is not a valid GTIN-13: its check digit should be 1",
    );
    // Other lengths are internal codes, not GTINs.
    expect(gtinProblem("123456789")).toBeNull();
    expect(gtinProblem("111")).toBeNull();
  });

  it("builds SSCC-18s from a company prefix, a serial reference and the check digit", () => {
    // GS1s own example (extension 1) is 106141411234567897; with extension 0 the check digit is 0.
    expect(gs1CheckDigit("10614141123456789")).toBe(7);
    expect(sscc("0614141", 123456789)).toBe("006141411234567890");
    const internal = sscc(null, 1);
    expect(internal).toHaveLength(18);
    expect(internal.slice(1, 8)).toBe(INTERNAL_COMPANY_PREFIX);
    expect(Number(internal.at(-1))).toBe(gs1CheckDigit(internal.slice(0, -1)));
    expect(sscc("4006381333", 999_999)).toBe(`04006381333999999${gs1CheckDigit("04006381333999999")}`);
    expect(() => sscc("4006381333", 1_000_000)).toThrow(RangeError);
    expect(ssccOf("00006141411234567890")).toBe("006141411234567890");
    expect(ssccOf("006141411234567890")).toBe("006141411234567890");
    expect(ssccOf("12345")).toBeNull();
  });
});

describe("product barcodes that read as GTINs", () => {
  it("refuse a wrong check digit with a 400 naming the field, on create, update and import", async () => {
    const bad = await call("POST", "/products", {
      headers: tenant.admin,
      body: { sku: `SKU-${unique()}`, name: "Bad", barcode: "4006381333932" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      "barcode: 4006381333932 is not a valid GTIN-13: its check digit should be 1",
    ]);

    const product = await createProduct(tenant, { barcode: "123456789" }); // not a GTIN length: kept as is
    expect(product.barcode).toBe("123456789");
    const patch = await call("PATCH", `/products/${product.id}`, {
      headers: tenant.admin,
      body: { barcode: "036000291453" },
    });
    expect(patch.status).toBe(400);
    expect(patch.body.errors).toEqual([
      "barcode: 036000291453 is not a valid GTIN-12: its check digit should be 2",
    ]);
    expect((await call("GET", `/products/${product.id}`, { headers: tenant.admin })).body.data.barcode).toBe(
      "123456789",
    );

    const sku = `SKU-${unique()}`;
    const imported = await call("POST", "/products/import", {
      headers: tenant.admin,
      body: [{ sku, name: "Imported", barcode: "96385075" }],
    });
    expect(imported.status).toBe(400);
    expect(imported.body.errors).toEqual([
      "row 1: barcode: 96385075 is not a valid GTIN-8: its check digit should be 4",
    ]);
    expect(
      (await call("GET", `/products?search=${sku}`, { headers: tenant.admin })).body.data.totalCount,
    ).toBe(0);
  });

  it("are reported, never rewritten, when stored before the check existed", async () => {
    const checker = await createTenant();
    const badId = await seedProduct(checker, { sku: "OLD-BAD" });
    const goodId = await seedProduct(checker, { sku: "OLD-GOOD" });
    const internalId = await seedProduct(checker, { sku: "OLD-INTERNAL" });
    const db = await tenantDatabase(checker.id);
    const setBarcode = (id: string, barcode: string) =>
      db.prepare("update products set barcode = ? where id = ?").bind(barcode, id).run();
    await setBarcode(badId, "4006381333932");
    await setBarcode(goodId, "4006381333931");
    await setBarcode(internalId, "4006381333");

    const report = await call("GET", "/products/invalid-barcodes", { headers: checker.admin });
    expect(report.status).toBe(200);
    expect(report.body.data).toMatchObject({ totalCount: 1, page: 1 });
    expect(report.body.data.items).toEqual([
      {
        productId: badId,
        sku: "OLD-BAD",
        name: "Widget",
        barcode: "4006381333932",
        problem: "4006381333932 is not a valid GTIN-13: its check digit should be 1",
      },
    ]);
    // Read-only: the product still carries its barcode.
    expect((await call("GET", `/products/${badId}`, { headers: checker.admin })).body.data.barcode).toBe(
      "4006381333932",
    );
    const inventoryOnly = await scopedKey(checker, ["read:inventory"]);
    expect((await call("GET", "/products/invalid-barcodes", { headers: inventoryOnly })).status).toBe(403);
    expect((await call("GET", "/products/invalid-barcodes")).status).toBe(401);
  });
});

describe("tenant settings", () => {
  it("hold the GS1 company prefix: admins change it, every member reads it", async () => {
    const own = await createTenant();
    expect((await call("GET", "/settings", { headers: own.admin })).body.data).toEqual({
      gs1CompanyPrefix: null,
      currency: null,
      updatedAt: null,
    });
    const set = await call("PATCH", "/settings", {
      headers: own.admin,
      body: { gs1CompanyPrefix: "4006381" },
    });
    expect(set.status).toBe(200);
    expect(set.body.data.gs1CompanyPrefix).toBe("4006381");
    const reader = await scopedKey(own, ["read:orders"]);
    expect((await call("GET", "/settings", { headers: reader })).body.data.gs1CompanyPrefix).toBe("4006381");
    const writer = await scopedKey(own, ["write:orders", "write:inventory", "write:products"]);
    expect(
      (await call("PATCH", "/settings", { headers: writer, body: { gs1CompanyPrefix: null } })).status,
    ).toBe(403);
    const bad = await call("PATCH", "/settings", {
      headers: own.admin,
      body: { gs1CompanyPrefix: "12AB567" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(["gs1CompanyPrefix: must be 7 to 10 digits (a GS1 company prefix)"]);
    expect((await call("GET", "/settings")).status).toBe(401);
    // Another tenant's settings are its own.
    expect((await call("GET", "/settings", { headers: other.admin })).body.data.gs1CompanyPrefix).toBeNull();
    const cleared = await call("PATCH", "/settings", {
      headers: own.admin,
      body: { gs1CompanyPrefix: null },
    });
    expect(cleared.body.data.gs1CompanyPrefix).toBeNull();
  });
});

describe("GET /barcodes/{code}", () => {
  it("resolves a scanned code to every product, location, lot and package it names", async () => {
    const warehouse = await createWarehouse(tenant);
    const code = `${Date.now()}`.slice(-8);
    const gtin = `${code.slice(0, 7)}${gs1CheckDigit(code.slice(0, 7))}`;
    const product = await createProduct(tenant, { barcode: gtin, tracking: "lot" });
    const location = await createLocation(tenant, warehouse.id, { code: `LOC-${code}` });
    const bySku = await createProduct(tenant, { sku: `LOC-${code}` });
    await receiveLot(tenant, product.id, location.id, 3, { lotNumber: `LOT-${code}` });

    const byBarcode = await call("GET", `/barcodes/${gtin}`, { headers: tenant.admin });
    expect(byBarcode.status).toBe(200);
    expect(byBarcode.body.data).toEqual({
      code: gtin,
      matches: [
        {
          type: "product",
          matchedOn: "barcode",
          product: { id: product.id, sku: product.sku, name: "Widget", barcode: gtin, merchantId: null },
        },
      ],
    });
    // A GTIN names the product whatever its spelling: the GTIN-14 of a GS1-128 code's (01) finds the GTIN-8.
    const padded = await call("GET", `/barcodes/000000${gtin}`, { headers: tenant.admin });
    expect(padded.body.data.matches).toEqual([
      {
        type: "product",
        matchedOn: "barcode",
        product: { id: product.id, sku: product.sku, name: "Widget", barcode: gtin, merchantId: null },
      },
    ]);
    // One code may name several things: a location and a product whose SKU is the same text.
    const both = await call("GET", `/barcodes/LOC-${code}`, { headers: tenant.admin });
    expect(both.body.data.matches).toEqual([
      {
        type: "product",
        matchedOn: "sku",
        product: { id: bySku.id, sku: `LOC-${code}`, name: "Widget", barcode: null, merchantId: null },
      },
      {
        type: "location",
        location: {
          id: location.id,
          code: `LOC-${code}`,
          name: "Bin",
          type: "bin",
          warehouseId: warehouse.id,
          warehouseCode: warehouse.code,
        },
      },
    ]);
    const lot = await call("GET", `/barcodes/LOT-${code}`, { headers: tenant.admin });
    expect(lot.body.data.matches).toMatchObject([
      {
        type: "lot",
        lot: { number: `LOT-${code}`, productId: product.id, sku: product.sku, expiresAt: null },
      },
    ]);

    expect((await call("GET", `/barcodes/${gtin}`, { headers: other.admin })).status).toBe(404);
    const unknown = await call("GET", "/barcodes/NOTHING-HERE", { headers: tenant.admin });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Nothing named NOTHING-HERE not found");
    expect((await call("GET", `/barcodes/${gtin}`)).status).toBe(401);
    const ordersOnly = await scopedKey(tenant, ["read:orders"]);
    expect((await call("GET", `/barcodes/${gtin}`, { headers: ordersOnly })).status).toBe(403);
  });

  it("finds a package by its SSCC, bare or with the (00) application identifier, for callers that read orders", async () => {
    const own = await createTenant();
    const db = await tenantDatabase(own.id);
    const shipmentId = crypto.randomUUID();
    const orderId = crypto.randomUUID();
    const packageId = crypto.randomUUID();
    const code = sscc(null, 42);
    const now = new Date().toISOString();
    await db.batch([
      db
        .prepare(
          "insert into shipments (id, tenant_id, order_id, status, created_at, updated_at) values (?, ?, ?, 'packed', ?, ?)",
        )
        .bind(shipmentId, own.id, orderId, now, now),
      db
        .prepare(
          `insert into packages (id, tenant_id, shipment_id, package_no, sscc, weight_milli, weight_unit, created_at)
           values (?, ?, ?, 1, ?, 1500, 'kg', ?)`,
        )
        .bind(packageId, own.id, shipmentId, code, now),
    ]);
    const expected = {
      type: "package",
      package: { id: packageId, sscc: code, shipmentId, orderId, trackingNumber: null },
    };
    for (const scanned of [code, `00${code}`]) {
      const res = await call("GET", `/barcodes/${scanned}`, { headers: own.admin });
      expect(res.body.data.matches).toEqual([expected]);
    }
    const inventoryOnly = await scopedKey(own, ["read:inventory"]);
    expect((await call("GET", `/barcodes/${code}`, { headers: inventoryOnly })).status).toBe(404);
    expect((await call("GET", `/barcodes/${code}`, { headers: other.admin })).status).toBe(404);
  });
});

describe("locations for fulfilment", () => {
  it("take a walking order (pickSequence) and the packing type", async () => {
    const warehouse = await createWarehouse(tenant);
    const packing = await call("POST", "/locations", {
      headers: tenant.admin,
      body: {
        warehouseId: warehouse.id,
        code: `PACK-${unique()}`,
        name: "Packing",
        type: "packing",
        pickSequence: 5,
      },
    });
    expect(packing.status).toBe(201);
    expect(packing.body.data).toMatchObject({ type: "packing", pickSequence: 5 });
    const bin = await createLocation(tenant, warehouse.id);
    expect(bin.pickSequence).toBeNull();
    const negative = await call("PUT", `/locations/${bin.id}`, {
      headers: tenant.admin,
      body: { code: bin.code, name: "Bin", type: "bin", pickSequence: -1 },
    });
    expect(negative.body.errors).toEqual(["pickSequence: must not be negative"]);
  });
});
