import { describe, expect, it } from "vitest";

import { createTenant, ok, type TestTenant } from "./support/api";
import { expectWellBehaved, openPage, signIn } from "./support/browser";

/** A loaded machine takes seconds to render a page: polls wait up to 15 s. */
const POLL = { timeout: 15_000 };

// Issue #45: a partial purchase-order receipt was blocked until every 0-unit line had a location; a return's scrap
// to the default packing location failed ("locationId: must be a UUID"); location selects mixed the warehouses'
// DOCK-IN without a warehouse code.

/** Warehouses MAIN and EAST, each with a dock named DOCK-IN, and products MUG-1 and PEN-1. */
async function twoDocks(tenant: TestTenant) {
  const { api } = tenant;
  const warehouse = (code: string) =>
    ok(api.POST("/api/v1/warehouses", { body: { code, name: `${code} warehouse` } }));
  const [main, east] = [await warehouse("MAIN"), await warehouse("EAST")];
  const dock = (warehouseId: string) =>
    ok(
      api.POST("/api/v1/locations", {
        body: { warehouseId, code: "DOCK-IN", name: "Inbound dock", type: "dock" },
      }),
    );
  const [mainDock, eastDock] = [await dock(main.id), await dock(east.id)];
  const product = (sku: string) => ok(api.POST("/api/v1/products", { body: { sku, name: sku, price: 2 } }));
  return { main, east, mainDock, eastDock, mug: await product("MUG-1"), pen: await product("PEN-1") };
}

describe("receipts and places, through the screens", () => {
  it("receives one line of a purchase order without a location for the other; the location select names the warehouse", {
    timeout: 120_000,
  }, async () => {
    const tenant = await createTenant();
    const { main, mainDock, mug, pen } = await twoDocks(tenant);
    const po = await ok(
      tenant.api.POST("/api/v1/orders/purchase", {
        body: {
          supplier: "Acme",
          warehouseId: main.id,
          lines: [
            { productId: mug.id, quantity: 5, cost: 1 },
            { productId: pen.id, quantity: 7, cost: 1 },
          ],
        },
      }),
    );
    await ok(
      tenant.api.PATCH("/api/v1/orders/{id}/status", {
        params: { path: { id: po.id } },
        body: { status: "ordered" },
      }),
    );
    const page = await openPage(`/app/orders/${po.id}`);
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("button", { name: "Receive", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `Receive ${po.number}` });
    const mugs = dialog.getByRole("group", { name: /^MUG-1/ });
    const pens = dialog.getByRole("group", { name: /^PEN-1/ });
    const into = mugs.getByLabel("Into location");
    await expect
      .poll(() => into.locator("option").allTextContents(), POLL)
      .toEqual(["Choose…", "MAIN · DOCK-IN"]);
    await into.selectOption({ label: "MAIN · DOCK-IN" });
    // Nothing of the pens came: 0 units, no location chosen.
    await pens.getByLabel("Quantity").fill("0");
    await dialog.getByRole("button", { name: "Receive stock" }).click();
    await page.locator(".details .badge", { hasText: "partially received" }).waitFor();
    const order = await ok(tenant.api.GET("/api/v1/orders/{id}", { params: { path: { id: po.id } } }));
    expect(order.lines.map((l) => l.receivedQuantity)).toEqual([5, 0]);
    const stock = await ok(
      tenant.api.GET("/api/v1/inventory/stock", { params: { query: { productId: mug.id } } }),
    );
    expect(stock.items.map((l) => ("onHand" in l ? [l.locationId, l.onHand] : []))).toEqual([
      [mainDock.id, 5],
    ]);
    expectWellBehaved(page);
  });

  it("names each location by its warehouse's code in the stock filter and the transfer dialog", {
    timeout: 120_000,
  }, async () => {
    const tenant = await createTenant();
    const { mainDock, mug } = await twoDocks(tenant);
    await ok(
      tenant.api.POST("/api/v1/inventory/adjustments", {
        body: { productId: mug.id, locationId: mainDock.id, quantity: 4, reason: "received" },
      }),
    );
    const page = await openPage("/app/stock");
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("button", { name: "Transfer MUG-1 from DOCK-IN" }).waitFor();
    const filter = page.getByRole("form", { name: "Filter stock" }).getByLabel("Location");
    await expect
      .poll(() => filter.locator("option").allTextContents(), POLL)
      .toEqual(expect.arrayContaining(["EAST · DOCK-IN", "MAIN · DOCK-IN"]));
    await page.getByRole("button", { name: "Transfer MUG-1 from DOCK-IN" }).click();
    const to = page.getByRole("dialog", { name: /^Transfer MUG-1/ }).getByLabel("To location");
    await expect
      .poll(() => to.locator("option").allTextContents(), POLL)
      .toEqual(["Choose…", "EAST · DOCK-IN"]);
    expectWellBehaved(page);
  });

  it("scraps a returned unit at the packing location when no location is chosen", {
    timeout: 120_000,
  }, async () => {
    const tenant = await createTenant();
    const { api } = tenant;
    const { main, mainDock, mug } = await twoDocks(tenant);
    await ok(
      api.POST("/api/v1/inventory/adjustments", {
        body: { productId: mug.id, locationId: mainDock.id, quantity: 3, reason: "received" },
      }),
    );
    const order = await ok(
      api.POST("/api/v1/orders/sales", {
        body: {
          customerId: crypto.randomUUID(),
          warehouseId: main.id,
          lines: [{ productId: mug.id, quantity: 2, price: 2 }],
          shippingAddress: { street: "1 Main St", city: "Springfield", zip: "12345" },
        },
      }),
    );
    await ok(
      api.PATCH("/api/v1/orders/{id}/status", {
        params: { path: { id: order.id } },
        body: { status: "shipped" },
      }),
    );
    const rma = await ok(
      api.POST("/api/v1/returns", {
        body: {
          orderId: order.id,
          lines: [{ orderLineId: order.lines[0]?.id ?? "", quantity: 1, reason: "broken" }],
        },
      }),
    );
    await ok(
      api.PATCH("/api/v1/returns/{id}/status", {
        params: { path: { id: rma.id } },
        body: { status: "authorized" },
      }),
    );
    const page = await openPage(`/app/returns/${rma.id}`);
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("button", { name: "Receive", exact: true }).click();
    const receive = page.getByRole("dialog", { name: /^Receive RMA-/ });
    await receive.getByLabel("Disposition").selectOption("scrap");
    await expect.poll(() => receive.getByLabel("Location").inputValue(), POLL).toBe("");
    await receive.getByRole("button", { name: "Receive return" }).click();
    await page.locator(".details .badge", { hasText: "received" }).waitFor();
    const ledger = await ok(
      api.GET("/api/v1/inventory/movements", {
        params: { query: { productId: mug.id, reason: "return_scrap" } },
      }),
    );
    // Written off where it arrived: the packing location the API made for the shipping warehouse.
    expect(ledger.items.map((m) => [m.delta, m.warehouseId])).toEqual([[-1, main.id]]);
    expectWellBehaved(page);
  });
});
