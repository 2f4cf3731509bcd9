import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createTenant, ok } from "./support/api";
import { expectFitsPhone, expectWellBehaved, openPage, screenshot, signIn } from "./support/browser";
import { MUG_BARCODE, mainWithBins, warehouseWithOrders } from "./support/seed";

const CASE_BARCODE = "12000000000012"; // GTIN-14 of a case of 4 mugs, check digit 2

/** On a shipment's page: a tracking number per package, the labels recorded, one label saved, then dispatch. */
async function labelAndDispatch(page: Page, trackingNumbers: string[]) {
  await page.getByRole("heading", { name: /^Shipment /, level: 1 }).waitFor();
  await page.locator(".details .badge", { hasText: "packed" }).waitFor();
  for (const [index, tracking] of trackingNumbers.entries())
    await page.getByLabel(`Tracking number, package ${index + 1}`).fill(tracking);
  await page.getByRole("button", { name: "Record labels" }).click();
  await page.locator(".details .badge", { hasText: "labelled" }).waitFor();
  const packages = page.getByRole("region", { name: "Packages" });
  for (const tracking of trackingNumbers) await packages.getByText(tracking).waitFor();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download label 1" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^\d{18}\.zpl$/);
  const label = await new Response((await download.createReadStream()) as unknown as ReadableStream).text();
  expect(label).toMatch(/^\^XA/);
  expect(label).toContain(trackingNumbers[0]);
  await page.getByRole("button", { name: "Dispatch" }).click();
  await page
    .getByRole("dialog", { name: /^Dispatch / })
    .getByRole("button", { name: "Dispatch" })
    .click();
  await page.locator(".details .badge", { hasText: "dispatched" }).waitFor();
}

describe("packing, through the screens", () => {
  it("packs an order into two packages, ships part, ships the rest; stock and ledger agree", {
    timeout: 240_000,
  }, async () => {
    const tenant = await createTenant();
    const { mug, pen, orders } = await warehouseWithOrders(tenant, 1);
    const [order] = orders;
    if (!order) throw new Error("no order");
    const phone = await openPage("/app/pack", { phone: true });
    await signIn(phone, tenant.email, tenant.password);

    // The order waits on the Pack screen (confirmed, never picked: it ships straight from its reservations).
    await phone.getByRole("link", { name: new RegExp(order.number) }).click();
    await phone.getByRole("heading", { name: `Pack ${order.number}`, level: 1 }).waitFor();
    // Package 1: the three mugs. Package 2: one of the two pens; the other pen stays open.
    await phone.getByLabel("Package type").first().fill("box-m");
    await phone.getByLabel("Weight", { exact: true }).first().fill("1.25");
    await phone
      .getByLabel(/^Line 1: PEN-1/)
      .first()
      .fill("0");
    await phone.getByRole("button", { name: "Add package" }).click();
    const second = phone.getByRole("group", { name: "Package 2" });
    await second.getByLabel("Weight", { exact: true }).fill("200");
    await second.getByLabel("Weight unit").selectOption("g");
    await second.getByLabel("Length", { exact: true }).fill("20");
    await second.getByLabel("Width", { exact: true }).fill("10");
    await second.getByLabel("Height", { exact: true }).fill("5");
    // The new package started with what the first left out: both pens, no mug.
    expect(await second.getByLabel(/^Line 1: PEN-1/).inputValue()).toBe("2");
    expect(await second.getByLabel(/^Line 2: MUG-1/).inputValue()).toBe("0");
    await second.getByLabel(/^Line 1: PEN-1/).fill("1");
    await expectFitsPhone(phone, "pack screen at 390 px");
    await screenshot(phone, "pack-two-packages-phone");
    await phone.getByRole("button", { name: "Create shipment" }).click();
    await labelAndDispatch(phone, ["TRACK-0001", "TRACK-0002"]);
    const packages = phone.getByRole("region", { name: "Packages" });
    await packages.getByText("MUG-1 × 3").waitFor();
    await packages.getByText("PEN-1 × 1").waitFor();
    await packages.getByText("200 g").waitFor();
    await packages.getByText("20 × 10 × 5 cm").waitFor();
    await expectFitsPhone(phone, "shipment at 390 px");
    await screenshot(phone, "shipment-dispatched-phone");

    // The order is partially shipped, lists its shipment and offers Pack for the last pen.
    await phone.getByRole("link", { name: order.number }).click();
    await phone.locator(".details .badge", { hasText: "partially shipped" }).waitFor();
    const shipments = phone.getByRole("region", { name: "Shipments of this order" });
    await shipments.getByText("TRACK-0001, TRACK-0002").waitFor();
    await phone.getByRole("link", { name: "Pack", exact: true }).last().click();
    await phone.getByRole("heading", { name: `Pack ${order.number}`, level: 1 }).waitFor();
    expect(await phone.getByLabel(/^Line 1: PEN-1 \(1 open\)/).inputValue()).toBe("1");
    await phone.getByLabel("Weight", { exact: true }).fill("0.1");
    await phone.getByRole("button", { name: "Create shipment" }).click();
    await labelAndDispatch(phone, ["TRACK-0003"]);
    await phone.getByRole("link", { name: order.number }).click();
    await phone.locator(".details .badge", { hasText: /^shipped$/ }).waitFor();
    await expect.poll(() => shipments.getByRole("row").count()).toBe(3);

    // The shipments list filters by status: both dispatched.
    await phone.goto("/app/shipments?status=dispatched");
    await phone.getByRole("heading", { name: "Shipments", level: 1 }).waitFor();
    await expect
      .poll(() => phone.getByRole("region", { name: "Shipments" }).getByRole("row").count())
      .toBe(3);
    await phone.goto("/app/shipments?status=packed");
    await phone.getByText("No shipments match these filters.").waitFor();

    // Through the API: what the screens showed is what the order, the stock and the ledger say.
    const shipped = await ok(tenant.api.GET("/api/v1/orders/{id}", { params: { path: { id: order.id } } }));
    expect(shipped.status).toBe("shipped");
    expect(shipped.lines.map((l) => l.shippedQuantity)).toEqual([2, 3]);
    const stock = await ok(
      tenant.api.GET("/api/v1/inventory/stock", { params: { query: { pageSize: 100 } } }),
    );
    const levels = stock.items.flatMap((l) => ("reserved" in l ? [l] : []));
    const level = (productId: string) => levels.filter((l) => l.productId === productId);
    expect(level(mug.id)).toEqual([expect.objectContaining({ locationCode: "A1", onHand: 17, reserved: 0 })]);
    expect(level(pen.id)).toEqual([expect.objectContaining({ locationCode: "A2", onHand: 18, reserved: 0 })]);
    const ledger = await ok(
      tenant.api.GET("/api/v1/inventory/movements", {
        params: { query: { reason: "shipment", pageSize: 100 } },
      }),
    );
    const out = (productId: string) =>
      ledger.items.filter((m) => m.productId === productId).map((m) => m.delta);
    expect(out(mug.id)).toEqual([-3]);
    expect(out(pen.id).sort()).toEqual([-1, -1]);
    const listed = await ok(
      tenant.api.GET("/api/v1/orders/{id}/shipments", { params: { path: { id: order.id } } }),
    );
    expect(listed.map((s) => [s.status, s.packages.map((p) => p.trackingNumber)])).toEqual([
      ["dispatched", ["TRACK-0001", "TRACK-0002"]],
      ["dispatched", ["TRACK-0003"]],
    ]);
    expectWellBehaved(phone);
  });

  it("packs by scanning: a case counts its units, serials are scanned per unit, a wrong product adds nothing", {
    timeout: 180_000,
  }, async () => {
    const tenant = await createTenant();
    const { api } = tenant;
    const { a1 } = await mainWithBins(tenant);
    const mug = await ok(
      api.POST("/api/v1/products", {
        body: {
          sku: "MUG-1",
          name: "Mug",
          barcode: MUG_BARCODE,
          packagings: [{ code: "case", name: "Case of 4", quantity: 4, barcode: CASE_BARCODE }],
        },
      }),
    );
    const camera = await ok(
      api.POST("/api/v1/products", { body: { sku: "CAM-1", name: "Camera", tracking: "serial" } }),
    );
    await ok(api.POST("/api/v1/products", { body: { sku: "PEN-1", name: "Pen" } }));
    await ok(
      api.POST("/api/v1/inventory/adjustments", {
        body: { productId: mug.id, locationId: a1.id, quantity: 10, reason: "received" },
      }),
    );
    await ok(
      api.POST("/api/v1/inventory/adjustments", {
        body: {
          productId: camera.id,
          locationId: a1.id,
          quantity: 3,
          reason: "received",
          serialNumbers: ["SN-1", "SN-2", "SN-3"],
        },
      }),
    );
    const order = await ok(
      api.POST("/api/v1/orders/sales", {
        body: {
          customerId: crypto.randomUUID(),
          lines: [
            { productId: mug.id, quantity: 5, price: 8 },
            { productId: camera.id, quantity: 2, price: 300 },
          ],
          shippingAddress: { street: "1 Main St", city: "Springfield", zip: "12345" },
        },
      }),
    );
    await ok(
      api.PATCH("/api/v1/orders/{id}/status", {
        params: { path: { id: order.id } },
        body: { status: "confirmed" },
      }),
    );
    const phone = await openPage(`/app/pack/${order.id}`, { phone: true });
    await signIn(phone, tenant.email, tenant.password);
    await phone.getByRole("heading", { name: `Pack ${order.number}`, level: 1 }).waitFor();
    const units = (line: RegExp) => phone.getByLabel(line).inputValue();
    const scan = async (code: string, prompt: string | RegExp = "Scan product into package 1") => {
      const field = phone.getByLabel(prompt);
      await field.fill(code);
      await field.press("Enter");
    };
    // Before any scan the package holds everything open but the serial-tracked line (its units are its serials).
    await expect.poll(() => units(/^Line 1: MUG-1/)).toBe("5");
    expect(await units(/^Line 2: CAM-1/)).toBe("0");

    // A product of another order: refused, nothing added, the package as it was.
    await scan("PEN-1");
    await phone
      .getByRole("alert")
      .getByText(`PEN-1 is not on order ${order.number}: it needs MUG-1, CAM-1`)
      .waitFor();
    expect(await units(/^Line 1: MUG-1/)).toBe("5");

    // A case: four mugs (the first scan empties the package: scanning counts it from zero). Then one mug.
    await scan(CASE_BARCODE);
    await expect.poll(() => units(/^Line 1: MUG-1/)).toBe("4");
    await scan(MUG_BARCODE);
    await expect.poll(() => units(/^Line 1: MUG-1/)).toBe("5");
    await scan(MUG_BARCODE);
    await phone.getByRole("alert").getByText(`Only 0 of MUG-1 left to pack: ${MUG_BARCODE} is 1`).waitFor();
    expect(await units(/^Line 1: MUG-1/)).toBe("5");

    // The cameras, each with its serial number; the same serial twice is refused.
    await scan("CAM-1");
    await scan("SN-2", "Serial number 1 of 1 for CAM-1");
    await expect.poll(() => units(/^Line 2: CAM-1/)).toBe("1");
    await scan("CAM-1");
    await scan("SN-2", "Serial number 1 of 1 for CAM-1");
    await phone.getByRole("alert").getByText("Serial number SN-2 is packed already").waitFor();
    await scan("SN-3", "Serial number 1 of 1 for CAM-1");
    await expect.poll(() => units(/^Line 2: CAM-1/)).toBe("2");
    await phone.getByText("Serial numbers of line 2: SN-2, SN-3").waitFor();
    await phone.getByLabel("Weight", { exact: true }).fill("2.5");
    await expectFitsPhone(phone, "scan to pack at 390 px");
    await screenshot(phone, "pack-scanned-phone");
    await phone.getByRole("button", { name: "Create shipment" }).click();
    await phone.getByRole("heading", { name: /^Shipment /, level: 1 }).waitFor();

    // Through the API: one package with five mugs and the two scanned cameras.
    const [shipment] = await ok(
      api.GET("/api/v1/orders/{id}/shipments", { params: { path: { id: order.id } } }),
    );
    const lines = shipment?.packages[0]?.lines ?? [];
    expect(lines.map((l) => [l.productId, l.quantity, l.serialNumbers ?? null])).toEqual([
      [mug.id, 5, null],
      [camera.id, 2, ["SN-2", "SN-3"]],
    ]);
    expectWellBehaved(phone);
  });
});
