import { describe, expect, it } from "vitest";
import {
  createProduct,
  createTenant,
  purchaseOrder,
  salesOrder,
  seedLocation,
  seedSerialStockedProducts,
  seedWarehouse,
  setStatus,
} from "./support/builders";
import { outboxEvents, tenantDatabase } from "./support/database";
import { call } from "./support/http";

// Events that carry serial numbers grow with them: every one must stay below D1's 1 MB a row, or the write
// that emits it fails with a 500 (docs/decisions/events.md). Serials here are as long as the API takes (100).
const serial = (prefix: string, product: number, unit: number) =>
  `${prefix}-${product}-${unit}-`.padEnd(100, "x");
const serials = (prefix: string, product: number, count: number) =>
  Array.from({ length: count }, (_, u) => serial(prefix, product, u));
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;

/** Rows a refused request must leave as they were. */
async function stored(tenantId: string) {
  return (await tenantDatabase(tenantId))
    .prepare(
      `select (select count(*) from orders where tenant_id = ?1) as orders,
         (select count(*) from serial_numbers where tenant_id = ?1) as serials,
         (select count(*) from stock_movements where tenant_id = ?1) as movements,
         (select count(*) from outbox_events where tenant_id = ?1) as events`,
    )
    .bind(tenantId)
    .first();
}

describe("serial numbers in order events", () => {
  it("refuses at creation a sales order that could never ship; the largest that can ships with its event stored", async () => {
    const tenant = await createTenant();
    const bin = await seedLocation(tenant, await seedWarehouse(tenant));
    const products = await seedSerialStockedProducts(tenant, bin, 6, (p) => serials("SO", p, 1000));
    const before = await stored(tenant.id);
    // 5,001 serial-tracked units: one shipment names at most 5,000 serials.
    const tooMany = await salesOrder(tenant, [
      ...products.slice(0, 5).map((productId) => ({ productId, quantity: 1000 })),
      { productId: products[5] as string, quantity: 1 },
    ]);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([
      "lines: an order ships at most 5000 serial-tracked units (5001 here): split it into several orders",
    ]);
    // A line names at most 1,000 serials when it ships.
    const longLine = await salesOrder(tenant, [{ productId: products[5] as string, quantity: 1001 }]);
    expect(longLine.status).toBe(400);
    expect(longLine.body.errors).toEqual([
      "lines[0].quantity: a serial-tracked line ships at most 1000 units (one serial number each): split it into several lines",
    ]);
    expect(await stored(tenant.id)).toEqual(before);

    const order = await salesOrder(
      tenant,
      products.slice(0, 5).map((productId) => ({ productId, quantity: 1000 })),
    );
    expect(order.status, JSON.stringify(order.body).slice(0, 300)).toBe(201);
    const id = order.body.data.id;
    for (const status of ["confirmed", "picking"])
      expect((await setStatus(tenant, id, { status })).status).toBe(200);
    const shipped = await setStatus(tenant, id, {
      status: "shipped",
      lines: order.body.data.lines.map((line, p) => ({
        lineId: line.id,
        serialNumbers: serials("SO", p, 1000),
      })),
    });
    expect(shipped.status, JSON.stringify(shipped.body).slice(0, 300)).toBe(200);
    const [event] = (await outboxEvents(tenant, /^order\.shipped$/)).filter((e) => e.payload.id === id);
    expect(event?.payload).toMatchObject({ id, status: "shipped" });
    expect(bytes(event?.payload)).toBeLessThan(1_000_000);
    const feed = await call("GET", "/events?type=order.shipped", { headers: tenant.admin });
    expect(feed.body.data.items.map((e) => e.id)).toEqual([event?.id]);
  });

  it("refuses a receipt naming more than 5,000 serials (its event would pass 1 MB) with a 400 that changes nothing", async () => {
    const tenant = await createTenant();
    const bin = await seedLocation(tenant, await seedWarehouse(tenant));
    const products: string[] = [];
    for (let i = 0; i < 10; i++) products.push((await createProduct(tenant, { tracking: "serial" })).id);
    const po = await purchaseOrder(
      tenant,
      bin.warehouseId,
      products.map((productId) => ({ productId, quantity: 1000 })),
    );
    expect(po.status).toBe(201);
    const id = po.body.data.id;
    expect((await setStatus(tenant, id, { status: "ordered" })).status).toBe(200);
    const lines = po.body.data.lines.map((line, p) => ({
      lineId: line.id,
      quantity: 1000,
      locationId: bin.id,
      serialNumbers: serials("PO", p, 1000),
    }));
    const before = await stored(tenant.id);
    // 10,000 serials of 100 characters: under the 1 MiB body limit, over D1's 1 MB for the event.
    const tooMany = await call("POST", `/orders/${id}/receive`, { headers: tenant.admin, body: { lines } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([
      "lines: must name at most 5000 serial numbers in all: receive the rest in another receipt",
    ]);
    expect(await stored(tenant.id)).toEqual(before);
    // In two receipts of 5,000 it is received, each with its event.
    for (const part of [lines.slice(0, 5), lines.slice(5)]) {
      const received = await call("POST", `/orders/${id}/receive`, {
        headers: tenant.admin,
        body: { lines: part },
      });
      expect(received.status, JSON.stringify(received.body).slice(0, 300)).toBe(200);
    }
    const events = (await outboxEvents(tenant, /^purchase_order\.received$/)).filter(
      (e) => e.payload.id === id,
    );
    expect(events).toHaveLength(2);
    for (const event of events) expect(bytes(event.payload)).toBeLessThan(1_000_000);
    expect((await call("GET", `/orders/${id}`, { headers: tenant.admin })).body.data.status).toBe("received");
  });
});
