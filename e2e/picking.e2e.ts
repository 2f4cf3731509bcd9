import { describe, expect, it } from "vitest";
import { createTenant, ok } from "./support/api";
import {
  allScansSent,
  expectFitsPhone,
  expectSpotless,
  expectWellBehaved,
  openPage,
  screenshot,
  signIn,
} from "./support/browser";
import { confirmedSale, MUG_BARCODE, mainWithBins, mugWithCase, warehouseWithOrders } from "./support/seed";

describe("picking, through the screens", () => {
  it("creates a pick list for a confirmed order and picks it at phone size by typed scans, refusing a wrong bin", {
    timeout: 180_000,
  }, async () => {
    const tenant = await createTenant();
    const { main, mug, pen, orders } = await warehouseWithOrders(tenant, 1);
    const [order] = orders;
    if (!order) throw new Error("no order");
    const phone = await openPage("/app/pick-lists", { phone: true });
    await signIn(phone, tenant.email, tenant.password);

    // The office makes the pick list: one warehouse, one confirmed order.
    await phone.getByRole("button", { name: "New pick list" }).click();
    const create = phone.getByRole("dialog", { name: "New pick list" });
    await create.getByLabel("Warehouse").selectOption({ label: "MAIN Main warehouse" });
    await create.getByLabel(new RegExp(order.number)).check();
    await create.getByRole("button", { name: "Create pick list" }).click();
    await phone.getByRole("heading", { name: /^Pick list /, level: 1 }).waitFor();
    const lines = phone.getByRole("region", { name: "Pick list lines in walking order" });
    // Walking order: A1 (the mug) before A2 (the pens), whatever the order's own line order.
    await expect
      .poll(() => lines.getByRole("row").allTextContents())
      .toEqual([
        expect.stringContaining("Line"),
        expect.stringMatching(/A1.*MUG-1/),
        expect.stringMatching(/A2.*PEN-1/),
      ]);
    await phone.locator(".toolbar").getByRole("link", { name: "Pick" }).click();

    // Line 1: a scan of the wrong bin is refused with what was expected; the right one goes on.
    const scan = (label: string, code: string) =>
      phone
        .getByLabel(label)
        .fill(code)
        .then(() => phone.getByLabel(label).press("Enter"));
    await phone.getByText("0 of 2 lines done").waitFor();
    // Chromium on Linux has no BarcodeDetector: the keyboard-wedge field alone, no Camera button.
    expect(await phone.getByRole("button", { name: "Camera", exact: true }).count()).toBe(0);
    await scan("Scan location", "A2");
    await phone.getByRole("alert").getByText("Wrong location: expected A1 (line 1), scanned A2").waitFor();
    await expectFitsPhone(phone, "pick screen at 390 px");
    await screenshot(phone, "pick-wrong-bin-phone");
    await scan("Scan location", "A1");
    await scan("Scan product", MUG_BARCODE);
    // More than the line asks: the API's 409 says how many are left. The field first shows what the line asks
    // (typed too early, a scan is replaced by it, as the scanner's next prompt takes over).
    await expect.poll(() => phone.getByLabel("Quantity").inputValue(), { timeout: 15_000 }).toBe("3");
    await scan("Quantity", "5");
    await phone.getByRole("alert").getByText("Line 1 asks for 3 more", { exact: true }).waitFor();
    await scan("Quantity", "3");

    // Line 2, the pens, scanned by SKU: then the list is complete.
    await phone.getByText("1 of 2 lines done").waitFor();
    await scan("Scan location", "A2");
    await scan("Scan product", "PEN-1");
    await expect.poll(() => phone.getByLabel("Quantity").inputValue(), { timeout: 15_000 }).toBe("2");
    await scan("Quantity", "2");
    await phone.getByText("Pick list complete: every line is picked or short.").waitFor();
    await screenshot(phone, "pick-complete-phone");
    await allScansSent(phone);

    // The office sees it completed, every unit picked.
    await phone.getByRole("link", { name: "See its lines" }).click();
    await phone.locator(".details .badge", { hasText: "completed" }).waitFor();
    await phone.getByText("5 of 5 units picked, 0 short").waitFor();

    // Through the API: the pick list is done and the units wait at the packing location, still reserved.
    const [done] = (
      await ok(tenant.api.GET("/api/v1/pick-lists", { params: { query: { orderId: order.id } } }))
    ).items;
    expect(done).toMatchObject({
      status: "completed",
      totals: { quantity: 5, pickedQuantity: 5, shortQuantity: 0 },
    });
    const atPacking = await ok(
      tenant.api.GET("/api/v1/inventory/stock", {
        params: { query: { warehouseId: main.id, pageSize: 100 } },
      }),
    );
    const levels = atPacking.items.flatMap((l) => ("reserved" in l ? [l] : []));
    const at = (productId: string, code: string) =>
      levels.find((l) => l.productId === productId && l.locationCode === code);
    expect(at(mug.id, "PACKING")).toMatchObject({ onHand: 3, reserved: 3 });
    expect(at(pen.id, "PACKING")).toMatchObject({ onHand: 2, reserved: 2 });
    expect(at(mug.id, "A1")).toMatchObject({ onHand: 17, reserved: 0 });
    // The refused scans were 404/409 answers, which Chromium logs as console errors: only those.
    expectWellBehaved(phone);
  });

  it("makes a wave of two orders, cancels it and finds it under the cancelled filter", {
    timeout: 120_000,
  }, async () => {
    const tenant = await createTenant();
    const { orders } = await warehouseWithOrders(tenant, 2);
    const page = await openPage("/app/pick-lists");
    await signIn(page, tenant.email, tenant.password);
    await page.getByText("No pick lists yet.").waitFor();
    await page.getByRole("button", { name: "New pick list" }).click();
    const create = page.getByRole("dialog", { name: "New pick list" });
    await create.getByLabel("Warehouse").selectOption({ label: "MAIN Main warehouse" });
    for (const order of orders) await create.getByLabel(new RegExp(order.number)).check();
    await create.getByRole("button", { name: "Create pick list" }).click();
    await page.getByRole("heading", { name: /^Pick list /, level: 1 }).waitFor();
    await page.getByText("0 of 10 units picked, 0 short").waitFor();
    await page.getByRole("button", { name: "Cancel pick list" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel pick list" }).click();
    await page.locator(".details .badge", { hasText: "cancelled" }).waitFor();
    await page.getByRole("link", { name: "← Pick lists" }).click();
    await page.getByLabel("Status").selectOption("cancelled");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/status=cancelled/);
    const row = page.getByRole("row", { name: /cancelled/ });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getByRole("cell").nth(3).textContent()).toBe("2");
    await page.getByLabel("Status").selectOption("open");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("No pick lists match these filters.").waitFor();
    expectSpotless(page);
  });

  it("reads the location and the product from the camera where the browser offers BarcodeDetector", {
    timeout: 120_000,
  }, async () => {
    const tenant = await createTenant();
    const { main, orders } = await warehouseWithOrders(tenant, 1);
    const pickList = await ok(
      tenant.api.POST("/api/v1/pick-lists", {
        body: { warehouseId: main.id, orderIds: [orders[0]?.id ?? ""] },
      }),
    );
    const phone = await openPage(`/app/pick/${pickList.id}`, {
      phone: true,
      cameraCodes: ["A1", MUG_BARCODE],
    });
    await signIn(phone, tenant.email, tenant.password);
    await phone.getByLabel("Scan location").waitFor();
    await phone.getByRole("button", { name: "Camera", exact: true }).click();
    // The camera's code went through GET /barcodes/{code} and the line's checks, as a typed one does.
    await phone.getByText("✓ Location A1").waitFor();
    await phone.getByLabel("Scan product").waitFor();
    await expect
      .poll(() => phone.getByRole("button", { name: "Camera", exact: true }).isEnabled())
      .toBe(true);
    await phone.getByRole("button", { name: "Camera", exact: true }).click();
    await phone.getByText(`✓ Product ${MUG_BARCODE}`).waitFor();
    // A quantity is typed: no camera for it.
    await phone.getByLabel("Quantity").waitFor();
    expect(await phone.getByRole("button", { name: "Camera", exact: true }).count()).toBe(0);
    await expectFitsPhone(phone, "pick screen with a camera at 390 px");
    expectSpotless(phone);
  });

  it("counts a case's barcode scanned at the quantity step as the case's units", {
    timeout: 180_000,
  }, async () => {
    const tenant = await createTenant();
    const { api } = tenant;
    const { main, a1 } = await mainWithBins(tenant);
    const caseBarcode = "12000000000029"; // GTIN-14, check digit 9: all digits, like a quantity
    const mug = await mugWithCase(tenant, caseBarcode);
    await ok(
      api.POST("/api/v1/inventory/adjustments", {
        body: { productId: mug.id, locationId: a1.id, quantity: 20, reason: "received" },
      }),
    );
    const order = await confirmedSale(tenant, [{ productId: mug.id, quantity: 8 }]);
    const pickList = await ok(
      api.POST("/api/v1/pick-lists", { body: { warehouseId: main.id, orderIds: [order.id] } }),
    );
    const phone = await openPage(`/app/pick/${pickList.id}`, { phone: true });
    await signIn(phone, tenant.email, tenant.password);
    const scan = (label: string, code: string) =>
      phone
        .getByLabel(label)
        .fill(code)
        .then(() => phone.getByLabel(label).press("Enter"));
    await phone.getByText("0 of 1 lines done").waitFor();
    await scan("Scan location", "A1");
    await scan("Scan product", MUG_BARCODE);
    await expect.poll(() => phone.getByLabel("Quantity").inputValue(), { timeout: 15_000 }).toBe("8");
    // One case: four mugs picked, four still asked.
    await scan("Quantity", caseBarcode);
    await phone.getByText("Pick 4 (4 picked already)", { exact: false }).waitFor();
    await expect.poll(() => phone.getByLabel("Quantity").inputValue(), { timeout: 15_000 }).toBe("4");
    await screenshot(phone, "pick-case-phone");
    // The second case completes the line.
    await scan("Quantity", caseBarcode);
    await phone.getByText("Pick list complete: every line is picked or short.").waitFor();
    await allScansSent(phone);
    const done = await ok(api.GET("/api/v1/pick-lists/{id}", { params: { path: { id: pickList.id } } }));
    expect(done.lines.map((l) => [l.quantity, l.pickedQuantity])).toEqual([[8, 8]]);
    expect(done.status).toBe("completed");
    expectSpotless(phone);
  });
});
