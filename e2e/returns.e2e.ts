import { describe, expect, it } from "vitest";
import { createTenant, ok } from "./support/api";
import { expectFitsPhone, expectWellBehaved, openPage, screenshot, signIn } from "./support/browser";
import { warehouseWithOrders } from "./support/seed";

describe("returns, through the screens", () => {
  it("creates a return of shipped mugs, authorizes it and receives it into quarantine; stock and ledger agree", {
    timeout: 180_000,
  }, async () => {
    const tenant = await createTenant();
    const { main, mug, orders } = await warehouseWithOrders(tenant, 1);
    const [order] = orders;
    if (!order) throw new Error("no order");
    await ok(
      tenant.api.POST("/api/v1/locations", {
        body: { warehouseId: main.id, code: "Q1", name: "Quarantine", type: "bin", sellable: false },
      }),
    );
    await ok(
      tenant.api.PATCH("/api/v1/orders/{id}/status", {
        params: { path: { id: order.id } },
        body: { status: "shipped", trackingNumber: "1Z-RETURN" },
      }),
    );
    const page = await openPage(`/app/orders/${order.id}`, { phone: true });
    await signIn(page, tenant.email, tenant.password);

    // The customer sends two of the three mugs back, damaged.
    await page.getByRole("button", { name: "Create return" }).click();
    const create = page.getByRole("dialog", { name: `Return from ${order.number}` });
    const mugs = create.getByRole("group", { name: /^Line 2: MUG-1, 3 shipped/ });
    await mugs.getByLabel("Units back").fill("2");
    await mugs.getByLabel("Reason").fill("damaged");
    await create.getByLabel("Notes").fill("Box crushed in transit");
    await create.getByRole("button", { name: "Create return" }).click();
    await page.getByRole("heading", { name: /^Return RMA-/, level: 1 }).waitFor();
    await page.locator(".details .badge", { hasText: "requested" }).waitFor();
    await page.getByRole("button", { name: "Authorize" }).click();
    await page.locator(".details .badge", { hasText: "authorized" }).waitFor();

    // They arrive and go to quarantine: the location list offers only non-sellable locations for it.
    await page.getByRole("button", { name: "Receive", exact: true }).click();
    const receive = page.getByRole("dialog", { name: /^Receive RMA-/ });
    await receive.getByLabel("Disposition").selectOption("quarantine");
    const location = receive.getByLabel("Location");
    await expect.poll(() => location.locator("option").allTextContents()).toEqual(["Choose…", "MAIN · Q1"]);
    await location.selectOption({ label: "MAIN · Q1" });
    await expectFitsPhone(page, "receive return at 390 px");
    await screenshot(page, "return-receive-phone");
    await receive.getByRole("button", { name: "Receive return" }).click();
    await page.locator(".details .badge", { hasText: "received" }).waitFor();
    const receipts = page.getByRole("region", { name: "Receipts" });
    await expect
      .poll(() => receipts.getByRole("row").nth(1).getByRole("cell").allTextContents())
      .toEqual([expect.any(String), "MUG-1", "2", "quarantine", "Q1", "—"]);
    await page.getByRole("button", { name: "Close" }).waitFor();

    // The returns list shows it received.
    await page.goto("/app/returns?status=received");
    await page.getByRole("heading", { name: "Returns", level: 1 }).waitFor();
    const rows = page.getByRole("region", { name: "Returns" }).getByRole("row");
    await expect.poll(() => rows.count()).toBe(2);
    await expect.poll(() => rows.nth(1).textContent()).toContain(order.number);

    // Through the API: two mugs on hand in Q1, never available; the ledger booked them as a quarantine return.
    const stock = await ok(
      tenant.api.GET("/api/v1/inventory/stock", { params: { query: { productId: mug.id, pageSize: 100 } } }),
    );
    const levels = stock.items.flatMap((l) => ("reserved" in l ? [l] : []));
    expect(levels.find((l) => l.locationCode === "Q1")).toMatchObject({
      onHand: 2,
      available: 0,
      sellable: false,
    });
    const ledger = await ok(
      tenant.api.GET("/api/v1/inventory/movements", {
        params: { query: { productId: mug.id, reason: "return_quarantine" } },
      }),
    );
    expect(ledger.items.map((m) => [m.delta, m.onHandAfter])).toEqual([[2, 2]]);
    expectWellBehaved(page);
  });
});
