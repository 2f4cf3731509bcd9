import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createTenant, ok, type TestTenant } from "./support/api";
import { expectFitsPhone, expectSpotless, openPage, screenshot, signIn } from "./support/browser";
import { mainWithBins } from "./support/seed";

/** A warehouse with two bins, a mug in stock and a lot-tracked soap on a purchase order waiting to be received. */
async function warehouse(tenant: TestTenant) {
  const { api } = tenant;
  const { main, a1, a2 } = await mainWithBins(tenant);
  const mug = await ok(
    api.POST("/api/v1/products", { body: { sku: "MUG-1", name: "Mug", price: 8, cost: 3, reorderPoint: 2 } }),
  );
  const soap = await ok(
    api.POST("/api/v1/products", {
      body: { sku: "SOAP-1", name: "Dish soap", price: 4, cost: 1.5, tracking: "lot" },
    }),
  );
  await ok(
    api.POST("/api/v1/inventory/adjustments", {
      body: { productId: mug.id, locationId: a1.id, quantity: 10, reason: "received" },
    }),
  );
  const po = await ok(
    api.POST("/api/v1/orders/purchase", {
      body: {
        supplier: "Acme Supply",
        warehouseId: main.id,
        lines: [{ productId: soap.id, quantity: 12, cost: 1.5 }],
      },
    }),
  );
  await ok(
    api.PATCH("/api/v1/orders/{id}/status", { params: { path: { id: po.id } }, body: { status: "ordered" } }),
  );
  return { main, a1, a2, mug, soap, po };
}

/** The current levels of a product: location code, lot, on hand, reserved. */
async function levels({ api }: TestTenant, productId: string) {
  const page = await ok(
    api.GET("/api/v1/inventory/stock", { params: { query: { productId, pageSize: 100 } } }),
  );
  return page.items.flatMap((l) => ("reserved" in l ? [l] : []));
}

describe("a day in the warehouse, through the screens", () => {
  it("receives a PO with a lot, takes an order, counts a bin at phone size, approves the variance and downloads the ledger", async () => {
    const tenant = await createTenant();
    const { mug, soap, po } = await warehouse(tenant);
    const page = await openPage("/app/orders");
    await signIn(page, tenant.email, tenant.password);

    // Receive the purchase order into A1 with its lot and expiry date.
    await page.getByRole("link", { name: po.number }).click();
    await page.getByRole("heading", { name: `Order ${po.number}`, level: 1 }).waitFor();
    await page.getByRole("button", { name: "Receive" }).click();
    const receive = page.getByRole("dialog", { name: `Receive ${po.number}` });
    await receive.getByLabel("Into location").selectOption({ label: "A1" });
    await receive.getByLabel("Lot number").fill("L-2611");
    await receive.getByLabel("Expires on").fill("2027-03-31");
    await screenshot(page, "receive-dialog");
    await receive.getByRole("button", { name: "Receive stock" }).click();
    await page.locator(".details .badge", { hasText: "received" }).waitFor();
    expect(
      await page
        .getByRole("row", { name: /SOAP-1/ })
        .getByRole("cell")
        .nth(3)
        .textContent(),
    ).toBe("12");

    // A sales order for 3 mugs, confirmed: 3 reserved.
    await page.getByRole("link", { name: "← Orders" }).click();
    await page.getByRole("button", { name: "New sales order" }).click();
    const create = page.getByRole("dialog", { name: "New sales order" });
    await create.getByLabel("Street").fill("1 Main St");
    await create.getByLabel("City").fill("Springfield");
    await create.getByLabel("ZIP").fill("62701");
    await create.getByLabel("SKU or barcode").fill("MUG-1");
    await create.getByLabel("Quantity").fill("3");
    await create.getByRole("button", { name: "Create order" }).click();
    await page.getByRole("heading", { name: /^Order SO-/, level: 1 }).waitFor();
    await page.getByRole("button", { name: "Mark confirmed" }).click();
    await page.locator(".details .badge", { hasText: "confirmed" }).waitFor();
    await page.getByRole("list").getByText("confirmed", { exact: true }).waitFor(); // the timeline
    await screenshot(page, "order");

    // Count A1 on a phone: the mug is one short, the soap as expected.
    const phone = await openPage("/app/counts", { phone: true });
    await signIn(phone, tenant.email, tenant.password);
    await phone.getByRole("button", { name: "New count" }).click();
    const start = phone.getByRole("dialog", { name: "New count" });
    await start.getByLabel("Warehouse").selectOption({ label: "MAIN Main warehouse" });
    await start.getByLabel("A1").check();
    await start.getByRole("button", { name: "Start count" }).click();
    await phone.getByRole("heading", { name: /^Count /, level: 1 }).waitFor();
    await phone.getByLabel("Counted MUG-1 at A1").fill("9");
    await phone.getByLabel("Counted SOAP-1 at A1").fill("12");
    await expectFitsPhone(phone, "count at 390 px");
    await screenshot(phone, "count-phone");
    await phone.getByRole("button", { name: "Submit for review" }).click();
    await phone.getByRole("button", { name: "Approve variances" }).click();
    const approve = phone.getByRole("dialog", { name: "Approve this count's variances?" });
    await approve.getByText("1 line's variance is booked to stock").waitFor();
    await approve.getByRole("button", { name: "Approve variances" }).click();
    await phone.locator(".details .badge", { hasText: "approved" }).waitFor();
    expect(await phone.getByRole("row", { name: /MUG-1/ }).getByRole("cell").last().textContent()).toBe("-1");

    // The stock screen shows what the API holds.
    await page.getByRole("link", { name: "Stock" }).click();
    const mugRow = page.getByRole("row", { name: /MUG-1/ });
    await expect.poll(() => mugRow.getByRole("cell").nth(4).textContent()).toBe("9");
    expect(await mugRow.getByRole("cell").nth(5).textContent()).toBe("3");
    expect(await mugRow.getByRole("cell").nth(6).textContent()).toBe("6");

    // The ledger's CSV, as a download.
    await page.getByRole("link", { name: "Movements" }).click();
    await page.getByRole("cell", { name: "cycle count" }).first().waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("movements.csv");
    const csv = readFileSync((await download.path()) ?? "", "utf8");
    expect(csv.split("\n")[0]).toMatch(/sku/i);
    expect(csv).toContain("MUG-1");
    expect(csv).toContain("SOAP-1");

    // Through the API: stock and ledger agree with the screens and with each other.
    const [mugLevel] = await levels(tenant, mug.id);
    expect(mugLevel).toMatchObject({ locationCode: "A1", onHand: 9, reserved: 3, available: 6 });
    const [soapLevel] = await levels(tenant, soap.id);
    expect(soapLevel).toMatchObject({
      locationCode: "A1",
      lotNumber: "L-2611",
      expiresAt: "2027-03-31",
      onHand: 12,
    });
    const ledger = await ok(
      tenant.api.GET("/api/v1/inventory/movements", {
        params: { query: { productId: mug.id, pageSize: 100 } },
      }),
    );
    expect(ledger.items.map((m) => [m.reason, m.delta, m.onHandAfter])).toEqual([
      ["cycle_count", -1, 9],
      ["received", 10, 10],
    ]);
    expect(ledger.items.reduce((sum, m) => sum + m.delta, 0)).toBe(mugLevel?.onHand);
    expectSpotless(page);
    expectSpotless(phone);
  });

  it("adjusts and transfers from the stock screen", async () => {
    const tenant = await createTenant();
    const { mug } = await warehouse(tenant);
    const page = await openPage("/app/stock");
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("button", { name: "Adjust MUG-1 at A1" }).click();
    const adjust = page.getByRole("dialog", { name: "Adjust MUG-1 at A1" });
    await adjust.getByLabel("Quantity").fill("-2");
    await adjust.getByLabel("Reason").selectOption("damaged");
    await adjust.getByRole("button", { name: "Adjust" }).click();
    await expect
      .poll(() => page.getByRole("row", { name: /MUG-1/ }).getByRole("cell").nth(4).textContent())
      .toBe("8");
    await page.getByRole("button", { name: "Transfer MUG-1 from A1" }).click();
    const transfer = page.getByRole("dialog", { name: "Transfer MUG-1 at A1" });
    await transfer.getByLabel("Quantity").fill("5");
    await transfer.getByLabel("To location").selectOption({ label: "MAIN A2" });
    await transfer.getByRole("button", { name: "Transfer" }).click();
    await page.getByRole("row", { name: /MUG-1 Mug MAIN A2/ }).waitFor();
    const byLocation = Object.fromEntries(
      (await levels(tenant, mug.id)).map((l) => [l.locationCode, l.onHand]),
    );
    expect(byLocation).toEqual({ A1: 3, A2: 5 });
    expectSpotless(page);
  });
});
