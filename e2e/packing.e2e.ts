import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createTenant, ok } from "./support/api";
import { expectFitsPhone, expectWellBehaved, openPage, screenshot, signIn } from "./support/browser";
import { warehouseWithOrders } from "./support/seed";

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
});
