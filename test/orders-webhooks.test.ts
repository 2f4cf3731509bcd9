import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { createTenant, salesOrder, setStatus, stockedProduct } from "./support/builders";
import { call } from "./support/http";
import { stubReceiver } from "./support/webhook-receiver";

// The outbox rows written in an order's batch reach a subscriber through the real queue and consumer.
describe("order events delivered as webhooks", () => {
  it("delivers order.created and order.shipped, signed, carrying the order after the change", async () => {
    const tenant = await createTenant();
    const subscription = await call("POST", "/webhooks", {
      headers: tenant.admin,
      body: { url: "https://shop.example.com/orders", events: ["order.created", "order.shipped"] },
    });
    expect(subscription.status).toBe(201);
    const { received } = stubReceiver();
    const { productId } = await stockedProduct(tenant, 5);
    const order = (await salesOrder(tenant, [{ productId, quantity: 2, price: 4.25 }])).body.data;
    await setStatus(tenant, order.id, { status: "shipped", trackingNumber: "TRACK-1" });

    await expect.poll(() => received.length, { timeout: 5000 }).toBe(2);
    const webhook = new Webhook(subscription.body.data.secret);
    const payloads = received
      .map(
        (r) =>
          webhook.verify(r.body, r.headers) as { type: string; data: { number: string; status: string } },
      )
      .sort((a, b) => a.type.localeCompare(b.type));
    expect(payloads[0]).toMatchObject({
      type: "order.created",
      data: { id: order.id, number: order.number, status: "pending", totals: { quantity: 2, total: 8.5 } },
    });
    expect(payloads[1]).toMatchObject({
      type: "order.shipped",
      data: { id: order.id, status: "shipped", trackingNumber: "TRACK-1", allowedTransitions: ["delivered"] },
    });
  });
});
