import { describe, expect, it } from "vitest";
import { createTenant, ok, type TestTenant } from "./support/api";
import { allScansSent, expectWellBehaved, openPage, signIn } from "./support/browser";
import { confirmedSale, MUG_BARCODE, mainWithBins } from "./support/seed";

// Two brands of one 3PL may sell the same SKU under the same barcode (issue #44: SKUs and barcodes are unique per
// merchant). A scan of that barcode names both products; the floor takes the one of the work at hand: the
// purchase order's line on Receive, the sales order's line on Pack. Picking's case is in picking's tests.

/** ACME's and BETA's TSHIRT-M, both printed with one barcode; BETA's has 10 in A1. */
async function twoBrandsOneBarcode(tenant: TestTenant) {
  const { api } = tenant;
  const bins = await mainWithBins(tenant);
  const acme = await ok(api.POST("/api/v1/merchants", { body: { code: "ACME", name: "Acme Outdoor" } }));
  const beta = await ok(api.POST("/api/v1/merchants", { body: { code: "BETA", name: "Beta Brands" } }));
  const shirt = (merchantId: string) =>
    ok(
      api.POST("/api/v1/products", {
        body: { sku: "TSHIRT-M", name: "T-shirt M", barcode: MUG_BARCODE, price: 10, merchantId },
      }),
    );
  const acmeShirt = await shirt(acme.id);
  const betaShirt = await shirt(beta.id);
  await ok(
    api.POST("/api/v1/inventory/adjustments", {
      body: { productId: betaShirt.id, locationId: bins.a1.id, quantity: 10, reason: "received" },
    }),
  );
  return { ...bins, acmeShirt, betaShirt };
}

const onHand = async ({ api }: TestTenant, productId: string) =>
  (await ok(api.GET("/api/v1/inventory/stock", { params: { query: { productId, pageSize: 100 } } }))).items
    .flatMap((l) => ("reserved" in l ? [l] : []))
    .reduce((sum, l) => sum + l.onHand, 0);

describe("a barcode two merchants share, on the floor", () => {
  it("receives the purchase order's own product when the scanned barcode names both brands' shirts", {
    timeout: 180_000,
  }, async () => {
    const tenant = await createTenant();
    const { api } = tenant;
    const { main, acmeShirt } = await twoBrandsOneBarcode(tenant);
    const po = await ok(
      api.POST("/api/v1/orders/purchase", {
        body: {
          supplier: "Acme Mills",
          warehouseId: main.id,
          lines: [{ productId: acmeShirt.id, quantity: 3, cost: 4 }],
        },
      }),
    );
    await ok(
      api.PATCH("/api/v1/orders/{id}/status", {
        params: { path: { id: po.id } },
        body: { status: "ordered" },
      }),
    );
    const barcode = await ok(api.GET("/api/v1/barcodes/{code}", { params: { path: { code: MUG_BARCODE } } }));
    expect(barcode.matches.filter((m) => m.type === "product")).toHaveLength(2);

    const phone = await openPage(`/app/receive/${po.id}`, { phone: true });
    await signIn(phone, tenant.email, tenant.password);
    await phone.getByRole("heading", { name: `Receive ${po.number}`, level: 1 }).waitFor();
    const scan = async (label: string, code: string) => {
      await phone.getByLabel(label).fill(code);
      await phone.getByLabel(label).press("Enter");
    };
    await scan("Scan product", MUG_BARCODE);
    await scan("Scan location", "A1");
    await scan("Quantity", "3");
    await phone.getByText(`${po.number} is received in full.`).waitFor();
    await allScansSent(phone);

    expect(await onHand(tenant, acmeShirt.id)).toBe(3);
    expectWellBehaved(phone);
  });

  it("packs the sales order's own product when the scanned barcode names both brands' shirts", {
    timeout: 180_000,
  }, async () => {
    const tenant = await createTenant();
    const { api } = tenant;
    const { betaShirt, acmeShirt } = await twoBrandsOneBarcode(tenant);
    const order = await confirmedSale(tenant, [{ productId: betaShirt.id, quantity: 2 }]);

    const phone = await openPage(`/app/pack/${order.id}`, { phone: true });
    await signIn(phone, tenant.email, tenant.password);
    await phone.getByRole("heading", { name: `Pack ${order.number}`, level: 1 }).waitFor();
    const units = () => phone.getByLabel(/^Line 1: TSHIRT-M/).inputValue();
    const field = phone.getByLabel("Scan product into package 1");
    for (let i = 0; i < 2; i++) {
      await field.fill(MUG_BARCODE);
      await field.press("Enter");
      await expect.poll(units).toBe(String(i + 1));
    }
    await phone.getByLabel("Weight", { exact: true }).fill("0.5");
    await phone.getByRole("button", { name: "Create shipment" }).click();
    await phone.getByRole("heading", { name: /^Shipment /, level: 1 }).waitFor();

    await phone.waitForURL(/\/app\/shipments\/[0-9a-f-]+$/);
    const shipmentId = new URL(phone.url()).pathname.split("/").at(-1) ?? "";
    const shipment = await ok(api.GET("/api/v1/shipments/{id}", { params: { path: { id: shipmentId } } }));
    const packed = shipment.packages.flatMap((p) => p.lines.map((l) => [l.productId, l.quantity]));
    expect(packed).toEqual([[betaShirt.id, 2]]);
    // ACME's shirt was never touched: no stock, nothing reserved or packed.
    expect(await onHand(tenant, acmeShirt.id)).toBe(0);
    expectWellBehaved(phone);
  });
});
