import { beforeAll, describe, expect, it } from "vitest";
import {
  createTenant,
  purchaseOrder,
  salesOrder,
  setStatus,
  stockedProduct,
  type TestTenant,
} from "./support/builders";
import { call } from "./support/http";
import { servedDocument } from "./support/openapi";

// Issue 50: an event that carries an order or a shipment with more fields extends the one `Order` or `Shipment` the
// resources answer (the document's allOf of its $ref), so every generated client has one order and one shipment
// model, which the events' derive from; and each event still carries every field it did (the resource's, and its own).

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const EXTENSIONS = {
  OrderChangedData: ["Order", ["shipments"]],
  OrderPartiallyShippedData: ["Order", ["shipments"]],
  OrderBackorderedData: ["Order", ["backorder"]],
  PurchaseOrderReceivedData: ["Order", ["receipt"]],
  ShipmentDispatchedData: ["Shipment", ["trackingNumbers"]],
} as const;

type Schema = { allOf?: Schema[]; $ref?: string; properties?: Record<string, unknown>; required?: string[] };

describe("events reuse the one order and shipment schema", () => {
  it("each event's data is the resource's schema ($ref) and its own fields, nothing copied", async () => {
    const schemas = ((await servedDocument()).components?.schemas ?? {}) as Record<string, Schema>;
    for (const [name, [base, own]] of Object.entries(EXTENSIONS)) {
      const [ref, extension, ...more] = schemas[name]?.allOf ?? [];
      expect(ref, name).toEqual({ $ref: `#/components/schemas/${base}` });
      expect(Object.keys(extension?.properties ?? {}), name).toEqual(own);
      expect(more, name).toEqual([]);
    }
  });

  it("order.status_changed and purchase_order.received carry every field of the order as GET /orders/{id} answers it, and their own", async () => {
    const { productId, warehouseId, locationId } = await stockedProduct(tenant, 5);
    const sale = await salesOrder(tenant, [{ productId, quantity: 1 }]);
    expect(sale.status).toBe(201);
    expect((await setStatus(tenant, sale.body.data.id, { status: "confirmed" })).status).toBe(200);
    const po = await purchaseOrder(tenant, warehouseId, [{ productId, quantity: 2 }]);
    expect(po.status).toBe(201);
    const poId = po.body.data.id;
    expect((await setStatus(tenant, poId, { status: "ordered" })).status).toBe(200);
    const received = await call("POST", `/orders/${poId}/receive`, {
      headers: tenant.admin,
      body: { lines: [{ lineId: po.body.data.lines[0]?.id, quantity: 2, locationId }] },
    });
    expect(received.status).toBe(200);

    const cases = [
      { type: "order.status_changed", id: sale.body.data.id, own: [] as string[] },
      { type: "purchase_order.received", id: poId, own: ["receipt"] },
    ];
    for (const { type, id, own } of cases) {
      const feed = await call("GET", `/events?type=${type}&limit=100`, { headers: tenant.admin });
      const event = feed.body.data.items.find((e) => (e.data as { id?: string }).id === id);
      expect(event, type).toBeDefined();
      const order = (await call("GET", `/orders/${id}`, { headers: tenant.admin })).body.data;
      const data = event?.data as Record<string, unknown>;
      expect(Object.keys(data).sort(), type).toEqual([...Object.keys(order), ...own].sort());
    }
  });
});
