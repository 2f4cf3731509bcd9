import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  salesOrder,
  scopedKey,
  setStatus,
  type TestTenant,
} from "./support/builders";
import { checkedStockOf, openReservations, outboxEvents } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
let other: TestTenant;
beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
});

const kg = (value: number) => ({ value, unit: "kg" });

/** A confirmed order of `quantity` units from one bin (10 in stock), and a shipment of `shipped` of them. */
async function shippedPart(
  quantity: number,
  shipped: number,
  packages = 1,
  shippingAddress: Record<string, string> = { street: "1 Main St", city: "Springfield", zip: "12345" },
) {
  const warehouse = await createWarehouse(tenant);
  const bin = await createLocation(tenant, warehouse.id);
  const product = await createProduct(tenant);
  await adjustStock(tenant, product.id, bin.id, 10);
  const created = await salesOrder(tenant, [{ productId: product.id, quantity }], {
    warehouseId: warehouse.id,
    shippingAddress,
  });
  expect(created.status).toBe(201);
  const order = created.body.data;
  await setStatus(tenant, order.id, { status: "confirmed" });
  const line = order.lines[0];
  if (!line) throw new Error("the order has a line");
  const res = await call("POST", `/orders/${order.id}/shipments`, {
    headers: tenant.admin,
    body: {
      carrier: "dhl",
      packages: Array.from({ length: packages }, (_, i) => ({
        weight: kg(1.5),
        lines: [{ orderLineId: line.id, quantity: i === 0 ? shipped - (packages - 1) : 1 }],
      })),
    },
  });
  expect(res.status).toBe(201);
  return { warehouse, bin, product, order, line, shipment: res.body.data };
}

const orderOf = async (id: string) =>
  (await call("GET", `/orders/${id}`, { headers: tenant.admin })).body.data;

describe("POST /shipments/{id}/cancel", () => {
  it("puts the units back at the packing location, reserved for the order; the order goes back to packed", async () => {
    const { bin, product, order, line, shipment } = await shippedPart(3, 3);
    expect((await orderOf(order.id)).status).toBe("shipped");

    const res = await call("POST", `/shipments/${shipment.id}/cancel`, { headers: tenant.admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: shipment.id, status: "cancelled" });
    expect(res.body.data.cancelledAt).not.toBeNull();

    const after = await orderOf(order.id);
    expect(after.status).toBe("packed");
    expect(after.lines[0]?.shippedQuantity).toBe(0);
    const levels = await checkedStockOf(tenant, product.id);
    expect(levels.find((l) => l.locationId === bin.id)).toMatchObject({ onHand: 7, reserved: 0 });
    expect(levels.find((l) => l.locationId !== bin.id)).toMatchObject({ onHand: 3, reserved: 3 });
    expect(await openReservations(tenant, product.id)).toBe(3);
    const moves = await call("GET", `/inventory/movements?reference=${shipment.id}`, {
      headers: tenant.admin,
    });
    expect(moves.body.data.items.map((m) => [m.delta, m.reason]).sort()).toEqual([
      [-3, "shipment"],
      [3, "shipment_cancelled"],
    ]);
    const events = (await outboxEvents(tenant, /^shipment\.cancelled$/)).filter(
      (e) => e.payload.id === shipment.id,
    );
    expect(events.map((e) => e.payload)).toEqual([res.body.data]);

    expect((await call("POST", `/shipments/${shipment.id}/cancel`, { headers: tenant.admin })).status).toBe(
      409,
    );
    // The units ship again, now from the packing location.
    const again = await call("POST", `/orders/${order.id}/shipments`, {
      headers: tenant.admin,
      body: { packages: [{ weight: kg(1), lines: [{ orderLineId: line.id, quantity: 3 }] }] },
    });
    expect(again.status).toBe(201);
    expect((await orderOf(order.id)).status).toBe("shipped");
    expect((await checkedStockOf(tenant, product.id)).reduce((sum, l) => sum + l.onHand, 0)).toBe(7);
  });

  it("leaves the order partially shipped while another shipment holds units; a dispatched one is not cancelled", async () => {
    const { order, line, shipment } = await shippedPart(4, 1);
    const second = await call("POST", `/orders/${order.id}/shipments`, {
      headers: tenant.admin,
      body: { packages: [{ weight: kg(1), lines: [{ orderLineId: line.id, quantity: 2 }] }] },
    });
    expect(second.status).toBe(201);
    expect((await call("POST", `/shipments/${shipment.id}/dispatch`, { headers: tenant.admin })).status).toBe(
      200,
    );
    const refused = await call("POST", `/shipments/${shipment.id}/cancel`, { headers: tenant.admin });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/is dispatched; only packed or labelled shipments are cancelled/);

    expect(
      (await call("POST", `/shipments/${second.body.data.id}/cancel`, { headers: tenant.admin })).status,
    ).toBe(200);
    const after = await orderOf(order.id);
    expect(after.status).toBe("partially_shipped");
    expect(after.lines[0]?.shippedQuantity).toBe(1);
  });

  it("of a cancellation racing a dispatch and other cancellations, exactly one wins and the stock stays whole", async () => {
    const { product, order, shipment } = await shippedPart(2, 2);
    const results = await Promise.all([
      call("POST", `/shipments/${shipment.id}/dispatch`, { headers: tenant.admin }),
      ...Array.from({ length: 4 }, () =>
        call("POST", `/shipments/${shipment.id}/cancel`, { headers: tenant.admin }),
      ),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const final = (await call("GET", `/shipments/${shipment.id}`, { headers: tenant.admin })).body.data;
    const levels = await checkedStockOf(tenant, product.id);
    const onHand = levels.reduce((sum, l) => sum + l.onHand, 0);
    if (final.status === "dispatched") {
      expect(onHand).toBe(8);
      expect((await orderOf(order.id)).lines[0]?.shippedQuantity).toBe(2);
    } else {
      expect(final.status).toBe("cancelled");
      expect(onHand).toBe(10);
      expect((await orderOf(order.id)).lines[0]?.shippedQuantity).toBe(0);
      expect(await openReservations(tenant, product.id)).toBe(2);
    }
  });
});

describe("POST /shipments/{id}/label", () => {
  it("records each package's tracking number with the manual carrier and keeps a ZPL label per package", async () => {
    const { order, shipment } = await shippedPart(3, 3, 2);
    const [first, second] = shipment.packages;
    if (!first || !second) throw new Error("two packages");
    const before = await call("GET", `/shipments/${shipment.id}/packages/${first.id}/label`, {
      headers: tenant.admin,
    });
    expect(before.status).toBe(404);

    const missing = await call("POST", `/shipments/${shipment.id}/label`, {
      headers: tenant.admin,
      body: { trackingNumbers: [{ packageId: first.id, trackingNumber: "1Z001" }] },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([
      `trackingNumbers: package 2 (${second.id}) needs a tracking number`,
    ]);
    const stranger = crypto.randomUUID();
    const unknown = await call("POST", `/shipments/${shipment.id}/label`, {
      headers: tenant.admin,
      body: { trackingNumbers: [{ packageId: stranger, trackingNumber: "1Z001" }] },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors).toEqual([
      `trackingNumbers[0].packageId: package ${stranger} not found in shipment ${shipment.id}`,
    ]);

    const res = await call("POST", `/shipments/${shipment.id}/label`, {
      headers: tenant.admin,
      body: {
        trackingNumbers: [
          { packageId: first.id, trackingNumber: "1Z001" },
          { packageId: second.id, trackingNumber: "1Z002" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("labelled");
    expect(res.body.data.packages.map((p) => [p.trackingNumber, p.labelFormat])).toEqual([
      ["1Z001", "zpl"],
      ["1Z002", "zpl"],
    ]);
    expect((await call("GET", `/shipments/${shipment.id}`, { headers: tenant.admin })).body.data).toEqual(
      res.body.data,
    );

    const label = await call("GET", `/shipments/${shipment.id}/packages/${second.id}/label`, {
      headers: tenant.admin,
    });
    expect(label.status).toBe(200);
    expect(label.headers.get("content-type")).toBe("application/zpl");
    expect(label.headers.get("content-disposition")).toBe(`attachment; filename="${second.sscc}.zpl"`);
    const zpl = label.body.data as unknown as string;
    expect(zpl.startsWith("^XA")).toBe(true);
    expect(zpl.trimEnd().endsWith("^XZ")).toBe(true);
    expect(zpl).toContain(`^FD(00)${second.sscc}^FS`);
    expect(zpl).toContain("^FD1Z002^FS");
    expect(zpl).toContain(`ORDER ${order.number}   PACKAGE 2 OF 2`);
    expect(zpl).toContain("12345 Springfield");

    const dispatched = await call("POST", `/shipments/${shipment.id}/dispatch`, { headers: tenant.admin });
    expect(dispatched.status).toBe(200);
    const [event] = (await outboxEvents(tenant, /^shipment\.dispatched$/)).filter(
      (e) => e.payload.id === shipment.id,
    );
    expect(event?.payload.trackingNumbers).toEqual(["1Z001", "1Z002"]);
    const late = await call("POST", `/shipments/${shipment.id}/label`, {
      headers: tenant.admin,
      body: { trackingNumbers: [] },
    });
    expect(late.status).toBe(409);
  });
});

describe("a label's address", () => {
  it("prints the recipient, company, both street lines, postal code and city, region and country", async () => {
    const address = {
      name: "Ada Lovelace",
      company: "Analytical Engines Ltd",
      street: "12 Marylebone Rd",
      street2: "Flat 3",
      city: "London",
      zip: "NW1 5LR",
      state: "Greater London",
      countryCode: "GB",
      phone: "+44 20 7946 0000",
      email: "ada@example.com",
    };
    const { order, shipment } = await shippedPart(1, 1, 1, address);
    expect((await orderOf(order.id)).shippingAddress).toEqual(address);
    const [pkg] = shipment.packages;
    if (!pkg) throw new Error("one package");
    const labelled = await call("POST", `/shipments/${shipment.id}/label`, {
      headers: tenant.admin,
      body: { trackingNumbers: [{ packageId: pkg.id, trackingNumber: "1Z-ADA" }] },
    });
    expect(labelled.status).toBe(200);
    const zpl = (
      await call("GET", `/shipments/${shipment.id}/packages/${pkg.id}/label`, { headers: tenant.admin })
    ).body.data as unknown as string;
    const shipTo = [...zpl.matchAll(/\^FD([^^]*)\^FS/g)].map((m) => m[1]);
    const from = shipTo.indexOf("SHIP TO");
    expect(shipTo.slice(from, from + 8)).toEqual([
      "SHIP TO",
      "Ada Lovelace",
      "Analytical Engines Ltd",
      "12 Marylebone Rd",
      "Flat 3",
      "NW1 5LR London",
      "Greater London",
      "UNITED KINGDOM",
    ]);
  });

  it("is refused (400, naming each field) with a country that is not an ISO code, a bad phone or email", async () => {
    const product = await createProduct(tenant);
    const res = await salesOrder(tenant, [{ productId: product.id, quantity: 1 }], {
      shippingAddress: {
        street: "1 Main St",
        city: "Springfield",
        zip: "12345",
        countryCode: "UK",
        phone: "call me",
        email: "nobody",
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      "shippingAddress.countryCode: must be an ISO 3166-1 alpha-2 country code in capitals (DE, US, ...)",
      "shippingAddress.phone: must be a phone number: digits, spaces and + ( ) - . /",
      "shippingAddress.email: must be an email address",
    ]);
  });
});

describe("shipment cancel and label access", () => {
  it("writes need write:orders, the label read:orders; another tenant's shipment and package are unknown", async () => {
    const { shipment } = await shippedPart(1, 1);
    const pkg = shipment.packages[0];
    if (!pkg) throw new Error("one package");
    const body = { trackingNumbers: [{ packageId: pkg.id, trackingNumber: "1Z9" }] };
    const labelPath = `/shipments/${shipment.id}/packages/${pkg.id}/label`;
    expect((await call("POST", `/shipments/${shipment.id}/cancel`)).status).toBe(401);
    expect((await call("POST", `/shipments/${shipment.id}/label`, { body })).status).toBe(401);
    expect((await call("GET", labelPath)).status).toBe(401);
    const reader = await scopedKey(tenant, ["read:orders"]);
    expect((await call("POST", `/shipments/${shipment.id}/cancel`, { headers: reader })).status).toBe(403);
    expect((await call("POST", `/shipments/${shipment.id}/label`, { headers: reader, body })).status).toBe(
      403,
    );
    const inventory = await scopedKey(tenant, ["read:inventory"]);
    expect((await call("GET", labelPath, { headers: inventory })).status).toBe(403);
    expect(
      (await call("POST", `/shipments/${shipment.id}/label`, { headers: other.admin, body })).status,
    ).toBe(404);
    expect(
      (await call("POST", `/shipments/${shipment.id}/label`, { headers: tenant.admin, body })).status,
    ).toBe(200);
    expect((await call("GET", labelPath, { headers: reader })).status).toBe(200);
    expect((await call("GET", labelPath, { headers: other.admin })).status).toBe(404);
    expect((await call("POST", `/shipments/${shipment.id}/cancel`, { headers: other.admin })).status).toBe(
      404,
    );
    expect((await call("GET", `/shipments/${shipment.id}`, { headers: tenant.admin })).body.data.status).toBe(
      "labelled",
    );
  });
});
