import { ok, type TestTenant } from "./api";

/** Warehouse MAIN with the bins A1 and A2, which every seeded test warehouse starts from. */
export async function mainWithBins({ api }: TestTenant) {
  const main = await ok(api.POST("/api/v1/warehouses", { body: { code: "MAIN", name: "Main warehouse" } }));
  const bin = (code: string) =>
    ok(
      api.POST("/api/v1/locations", {
        body: { warehouseId: main.id, code, name: `Bin ${code}`, type: "bin" },
      }),
    );
  return { main, a1: await bin("A1"), a2: await bin("A2") };
}

/**
 * A small warehouse through the public API: two bins, three products, receipts, a transfer, a write-off and
 * sales and purchase orders in several statuses. Every figure the tests read is worked out here.
 *   MUG-1  received 50 in A1, 10 moved to A2, 2 damaged; 5 reserved by a pending order, 3 shipped
 *   PEN-1  received 100 in A1; 20 reserved by a confirmed order
 *   LAMP-1 received 2 in A2 (reorder point 5: low stock)
 * On hand: MUG 45, PEN 100, LAMP 2 = 147; reserved 25; available 122.
 */
export async function seedWarehouse(tenant: TestTenant) {
  const { api } = tenant;
  const { main: warehouse, a1, a2 } = await mainWithBins(tenant);
  const product = (sku: string, name: string, price: number, reorderPoint: number) =>
    ok(
      api.POST("/api/v1/products", {
        body: { sku, name, category: "e2e", price, cost: price / 2, reorderPoint },
      }),
    );
  const mug = await product("MUG-1", "Mug", 8, 10);
  const pen = await product("PEN-1", "Pen", 1.5, 10);
  const lamp = await product("LAMP-1", "Desk lamp", 40, 5);
  const adjust = (productId: string, locationId: string, quantity: number, reason: string) =>
    ok(api.POST("/api/v1/inventory/adjustments", { body: { productId, locationId, quantity, reason } }));
  await adjust(mug.id, a1.id, 50, "received");
  await adjust(pen.id, a1.id, 100, "received");
  await adjust(lamp.id, a2.id, 2, "received");
  await ok(
    api.POST("/api/v1/inventory/transfers", {
      body: { productId: mug.id, fromLocationId: a1.id, toLocationId: a2.id, quantity: 10 },
    }),
  );
  await adjust(mug.id, a1.id, -2, "damaged");

  const address = { street: "1 Main St", city: "Springfield", zip: "12345" };
  const sale = (productId: string, quantity: number, price: number) =>
    ok(
      api.POST("/api/v1/orders/sales", {
        body: {
          customerId: crypto.randomUUID(),
          lines: [{ productId, quantity, price }],
          shippingAddress: address,
        },
      }),
    );
  const status = (id: string, body: { status: "confirmed" | "shipped"; trackingNumber?: string }) =>
    ok(api.PATCH("/api/v1/orders/{id}/status", { params: { path: { id } }, body }));
  await sale(mug.id, 5, 8);
  const confirmed = await sale(pen.id, 20, 1.5);
  await status(confirmed.id, { status: "confirmed" });
  const shipped = await sale(mug.id, 3, 8);
  await status(shipped.id, { status: "shipped", trackingNumber: "1Z999" });
  await ok(
    api.POST("/api/v1/orders/purchase", {
      body: {
        supplier: "Acme",
        warehouseId: warehouse.id,
        lines: [{ productId: lamp.id, quantity: 10, cost: 30 }],
      },
    }),
  );
  return { warehouse, a1, a2, mug, pen, lamp };
}

export const MUG_BARCODE = "2000000000015"; // EAN-13, GS1 in-store prefix 200, check digit 5

/** MUG-1 with its barcode and a case of 4 whose barcode is `caseBarcode` (a GTIN-14: all digits, like a number). */
export const mugWithCase = ({ api }: TestTenant, caseBarcode: string) =>
  ok(
    api.POST("/api/v1/products", {
      body: {
        sku: "MUG-1",
        name: "Mug",
        barcode: MUG_BARCODE,
        packagings: [{ code: "case", name: "Case of 4", quantity: 4, barcode: caseBarcode }],
      },
    }),
  );

/** A confirmed sales order of these lines (a price of 1 each), to one address. */
export async function confirmedSale({ api }: TestTenant, lines: { productId: string; quantity: number }[]) {
  const order = await ok(
    api.POST("/api/v1/orders/sales", {
      body: {
        customerId: crypto.randomUUID(),
        lines: lines.map((line) => ({ ...line, price: 1 })),
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
  return order;
}

/**
 * A warehouse with a mug in A1 and pens in A2, and `orders` confirmed sales orders each for 2 pens and 3 mugs
 * (pens first on the order: the pick list still walks A1 before A2).
 */
export async function warehouseWithOrders(tenant: TestTenant, orders: number) {
  const { api } = tenant;
  const { main, a1, a2 } = await mainWithBins(tenant);
  const mug = await ok(
    api.POST("/api/v1/products", { body: { sku: "MUG-1", name: "Mug", price: 8, barcode: MUG_BARCODE } }),
  );
  const pen = await ok(api.POST("/api/v1/products", { body: { sku: "PEN-1", name: "Pen", price: 1.5 } }));
  for (const [productId, locationId] of [
    [mug.id, a1.id],
    [pen.id, a2.id],
  ] as const) {
    await ok(
      api.POST("/api/v1/inventory/adjustments", {
        body: { productId, locationId, quantity: 20, reason: "received" },
      }),
    );
  }
  const confirmed = [];
  for (let i = 0; i < orders; i++) {
    const order = await ok(
      api.POST("/api/v1/orders/sales", {
        body: {
          customerId: crypto.randomUUID(),
          lines: [
            { productId: pen.id, quantity: 2, price: 1.5 },
            { productId: mug.id, quantity: 3, price: 8 },
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
    confirmed.push(order);
  }
  return { main, mug, pen, orders: confirmed };
}
