import { describe, expect, it } from "vitest";
import { createTenant, ok } from "./support/api";
import {
  allScansSent,
  expectFitsPhone,
  expectSpotless,
  openPage,
  screenshot,
  signIn,
} from "./support/browser";

describe("receiving on the floor, through the screens", () => {
  it("receives a purchase order at phone size by typed scans, split over two bins and with a lot", {
    timeout: 180_000,
  }, async () => {
    const tenant = await createTenant();
    const { api } = tenant;
    const main = await ok(api.POST("/api/v1/warehouses", { body: { code: "MAIN", name: "Main warehouse" } }));
    for (const code of ["A1", "A2"])
      await ok(
        api.POST("/api/v1/locations", {
          body: { warehouseId: main.id, code, name: `Bin ${code}`, type: "bin" },
        }),
      );
    const mug = await ok(
      api.POST("/api/v1/products", { body: { sku: "MUG-1", name: "Mug", barcode: "2000000000015" } }),
    );
    const soap = await ok(
      api.POST("/api/v1/products", { body: { sku: "SOAP-1", name: "Dish soap", tracking: "lot" } }),
    );
    await ok(api.POST("/api/v1/products", { body: { sku: "LAMP-1", name: "Desk lamp" } }));
    const po = await ok(
      api.POST("/api/v1/orders/purchase", {
        body: {
          supplier: "Acme Supply",
          warehouseId: main.id,
          lines: [
            { productId: mug.id, quantity: 10, cost: 3 },
            { productId: soap.id, quantity: 12, cost: 1.5 },
          ],
        },
      }),
    );
    await ok(
      api.PATCH("/api/v1/orders/{id}/status", {
        params: { path: { id: po.id } },
        body: { status: "ordered" },
      }),
    );

    const phone = await openPage("/app/receive", { phone: true });
    await signIn(phone, tenant.email, tenant.password);
    await phone.getByRole("link", { name: new RegExp(po.number) }).click();
    await phone.getByRole("heading", { name: `Receive ${po.number}`, level: 1 }).waitFor();
    const scan = async (label: string, code: string) => {
      await phone.getByLabel(label).fill(code);
      await phone.getByLabel(label).press("Enter");
    };

    // A product that is not on the order is refused, naming what still is.
    await scan("Scan product", "LAMP-1");
    await phone
      .getByRole("alert")
      .getByText(`Not on ${po.number}: scanned LAMP-1; still open: MUG-1, SOAP-1`)
      .waitFor();
    await expectFitsPhone(phone, "receive screen at 390 px");
    await screenshot(phone, "receive-wrong-product-phone");

    // The mugs by barcode, 4 into A1 and the rest into A2.
    await scan("Scan product", "2000000000015");
    await scan("Scan location", "A1");
    expect(await phone.getByLabel("Quantity").inputValue()).toBe("10");
    await scan("Quantity", "4");
    await phone.getByText("Received 4 MUG-1 into A1").waitFor();
    await scan("Scan product", "MUG-1");
    await scan("Scan location", "A2");
    await scan("Quantity", "6");
    await phone.getByText("Received 6 MUG-1 into A2").waitFor();

    // The soap with its lot and expiry.
    await scan("Scan product", "SOAP-1");
    await scan("Scan location", "A1");
    await scan("Lot number", "L-77");
    await scan("Expires on (YYYY-MM-DD)", "2027-05-31");
    await scan("Quantity", "12");
    await phone.getByText(`${po.number} is received in full.`).waitFor();
    await screenshot(phone, "receive-complete-phone");
    await allScansSent(phone);

    // Through the API: the order is received and the stock is where the scans put it.
    const order = await ok(api.GET("/api/v1/orders/{id}", { params: { path: { id: po.id } } }));
    expect(order.status).toBe("received");
    const stock = await ok(
      api.GET("/api/v1/inventory/stock", { params: { query: { warehouseId: main.id, pageSize: 100 } } }),
    );
    const levels = stock.items
      .flatMap((l) => ("reserved" in l ? [l] : []))
      .map((l) => [l.sku, l.locationCode, l.lotNumber, l.expiresAt, l.onHand])
      .sort();
    expect(levels).toEqual([
      ["MUG-1", "A1", null, null, 4],
      ["MUG-1", "A2", null, null, 6],
      ["SOAP-1", "A1", "L-77", "2027-05-31", 12],
    ]);
    expectSpotless(phone);
  });
});
