import { describe, expect, it } from "vitest";
import { createTenant, ok } from "./support/api";
import { expectWellBehaved, openPage, signIn } from "./support/browser";
import { warehouseWithOrders } from "./support/seed";

// Irreversible actions ask first and say what will happen (issue #45): one click never ships.
describe("irreversible actions ask first", () => {
  it("Dispatch of a package with no label and no tracking says so, and ships nothing until confirmed", async () => {
    const tenant = await createTenant();
    const { orders } = await warehouseWithOrders(tenant, 1);
    const [order] = orders;
    if (!order) throw new Error("no order");
    const shipment = await ok(
      tenant.api.POST("/api/v1/orders/{id}/shipments", {
        params: { path: { id: order.id } },
        body: {
          packages: [
            {
              weight: { value: 1, unit: "kg" },
              lines: order.lines.map((l) => ({ orderLineId: l.id, quantity: l.quantity })),
            },
          ],
        },
      }),
    );
    const shipmentStatus = async () =>
      (await ok(tenant.api.GET("/api/v1/shipments/{id}", { params: { path: { id: shipment.id } } }))).status;
    const page = await openPage(`/app/shipments/${shipment.id}`);
    await signIn(page, tenant.email, tenant.password);
    await page.locator(".details .badge", { hasText: "packed" }).waitFor();

    await page.getByRole("button", { name: "Dispatch" }).click();
    const ask = page.getByRole("dialog", { name: /^Dispatch / });
    await ask.getByText("No package has a label or a tracking number").waitFor();
    await ask.getByText("This cannot be undone.").waitFor();
    await ask.getByRole("button", { name: "Cancel" }).click();
    await ask.waitFor({ state: "detached" });
    expect(await shipmentStatus()).toBe("packed");

    await page.getByRole("button", { name: "Dispatch" }).click();
    await ask.getByRole("button", { name: "Dispatch" }).click();
    await page.locator(".details .badge", { hasText: "dispatched" }).waitFor();
    expect(await shipmentStatus()).toBe("dispatched");
    expectWellBehaved(page);
  });

  it("Mark shipped of an order with no shipment names the units that leave without a package", async () => {
    const tenant = await createTenant();
    const { orders } = await warehouseWithOrders(tenant, 1);
    const [order] = orders;
    if (!order) throw new Error("no order");
    const orderStatus = async () =>
      (await ok(tenant.api.GET("/api/v1/orders/{id}", { params: { path: { id: order.id } } }))).status;
    const page = await openPage(`/app/orders/${order.id}`);
    await signIn(page, tenant.email, tenant.password);
    await page.locator(".details .badge", { hasText: "confirmed" }).waitFor();

    await page.getByRole("button", { name: "Mark shipped" }).click();
    const ask = page.getByRole("dialog", { name: `Mark ${order.number} shipped?` });
    await ask.getByText("5 units are in no shipment").waitFor();
    await ask.getByText("no tracking number").waitFor();
    await ask.getByRole("button", { name: "Cancel" }).click();
    await ask.waitFor({ state: "detached" });
    expect(await orderStatus()).toBe("confirmed");

    await page.getByRole("button", { name: "Mark shipped" }).click();
    await ask.getByRole("button", { name: "Mark shipped" }).click();
    await page.locator(".details .badge", { hasText: /^shipped$/ }).waitFor();
    expect(await orderStatus()).toBe("shipped");
    expectWellBehaved(page);
  });
});
