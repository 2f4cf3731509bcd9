import { describe, expect, it } from "vitest";
import { address, createTenant, purchaseOrder, stockedProduct } from "./support/builders";
import { openReservations } from "./support/database";
import { call } from "./support/http";

describe("Idempotency-Key on order creation", () => {
  it("a replayed sales order returns the original response and creates one order, reserving once", async () => {
    const tenant = await createTenant();
    const { productId } = await stockedProduct(tenant, 10);
    const body = {
      customerId: crypto.randomUUID(),
      lines: [{ productId, quantity: 3, price: 2.5 }],
      shippingAddress: address,
    };
    const headers = { ...tenant.admin, "idempotency-key": "order-42" };
    const first = await call("POST", "/orders/sales", { headers, body });
    const replay = await call("POST", "/orders/sales", { headers, body });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get("location")).toBe(first.headers.get("location"));

    const list = await call("GET", "/orders", { headers: tenant.admin });
    expect(list.body.data.totalCount).toBe(1);
    expect(await openReservations(tenant, productId)).toBe(3);

    const otherBody = await call("POST", "/orders/sales", {
      headers,
      body: { ...body, lines: [{ productId, quantity: 4, price: 2.5 }] },
    });
    expect(otherBody.status).toBe(422);
  });

  it("concurrent retries with one key create one order", async () => {
    const tenant = await createTenant();
    const { productId } = await stockedProduct(tenant, 100);
    const body = {
      customerId: crypto.randomUUID(),
      lines: [{ productId, quantity: 1, price: 1 }],
      shippingAddress: address,
    };
    const headers = { ...tenant.admin, "idempotency-key": "burst-1" };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call("POST", "/orders/sales", { headers, body })),
    );
    // Each answer is the one creation (201, possibly replayed) or "still in flight" (409); never a second order.
    for (const r of results) expect([201, 409]).toContain(r.status);
    const ids = new Set(results.filter((r) => r.status === 201).map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    const list = await call("GET", "/orders", { headers: tenant.admin });
    expect(list.body.data.totalCount).toBe(1);
    expect(await openReservations(tenant, productId)).toBe(1);
  });

  it("a replayed purchase-order receipt adds stock once", async () => {
    const tenant = await createTenant();
    const { productId, warehouseId, locationId } = await stockedProduct(tenant, 0);
    const po = (await purchaseOrder(tenant, warehouseId, [{ productId, quantity: 10 }])).body.data;
    await call("PATCH", `/orders/${po.id}/status`, { headers: tenant.admin, body: { status: "ordered" } });
    const headers = { ...tenant.admin, "idempotency-key": "receipt-1" };
    const body = { lines: [{ lineId: po.lines[0]!.id, quantity: 4, locationId }] };
    const first = await call("POST", `/orders/${po.id}/receive`, { headers, body });
    const replay = await call("POST", `/orders/${po.id}/receive`, { headers, body });
    expect(first.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const order = (await call("GET", `/orders/${po.id}`, { headers: tenant.admin })).body.data;
    expect(order.lines[0]?.receivedQuantity).toBe(4);
  });
});
