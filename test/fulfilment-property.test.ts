import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  salesOrder,
  setStatus,
  type TestTenant,
} from "./support/builders";
import { checkedStockOf, openReservations } from "./support/database";
import { call } from "./support/http";

// Random sequences of what a warehouse does to one order (picks, shorts, shipments, their cancellation and
// dispatch, status updates), each answered by the API as it likes, must leave the books whole.

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

// Weighted so that most sequences pick, ship and then undo some of it (a shipment needs picked units first).
const step = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("pick" as const),
      line: fc.nat(1),
      quantity: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("short" as const),
      line: fc.nat(1),
      quantity: fc.integer({ min: 1, max: 2 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("ship" as const),
      line: fc.nat(1),
      quantity: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("cancelShipment" as const), which: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("dispatch" as const), which: fc.nat(3) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("status" as const),
      to: fc.constantFrom("shipped", "cancelled", "delivered"),
    }),
  },
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/** A confirmed order of 3 and 2 units (10 of each in one bin) on a pick list. */
async function scene() {
  const warehouse = await createWarehouse(tenant);
  const bin = await createLocation(tenant, warehouse.id);
  const products = [await createProduct(tenant), await createProduct(tenant)];
  for (const p of products) await adjustStock(tenant, p.id, bin.id, 10);
  const order = (
    await salesOrder(
      tenant,
      products.map((p, i) => ({ productId: p.id, quantity: 3 - i })),
      { warehouseId: warehouse.id },
    )
  ).body.data;
  await setStatus(tenant, order.id, { status: "confirmed" });
  const list = (
    await call("POST", "/pick-lists", {
      headers: tenant.admin,
      body: { warehouseId: warehouse.id, orderIds: [order.id] },
    })
  ).body.data;
  return { bin, products, order, list, shipments: [] as string[] };
}

async function run(s: Awaited<ReturnType<typeof scene>>, command: Step) {
  const headers = tenant.admin;
  const pickLine = (i: number) => s.list.lines[i % s.list.lines.length];
  switch (command.kind) {
    case "pick": {
      const line = pickLine(command.line);
      return call("POST", `/pick-lists/${s.list.id}/picks`, {
        headers,
        body: { lineId: line?.id, location: s.bin.code, product: line?.sku, quantity: command.quantity },
      });
    }
    case "short":
      return call("POST", `/pick-lists/${s.list.id}/shorts`, {
        headers,
        body: { lineId: pickLine(command.line)?.id, quantity: command.quantity, reason: "not found" },
      });
    case "ship": {
      const res = await call("POST", `/orders/${s.order.id}/shipments`, {
        headers,
        body: {
          packages: [
            {
              weight: { value: 1, unit: "kg" },
              lines: [{ orderLineId: s.order.lines[command.line]?.id, quantity: command.quantity }],
            },
          ],
        },
      });
      if (res.status === 201) s.shipments.push(res.body.data.id);
      return res;
    }
    case "cancelShipment":
    case "dispatch": {
      const id = s.shipments[command.which % Math.max(s.shipments.length, 1)];
      if (!id) return undefined;
      const action = command.kind === "dispatch" ? "dispatch" : "cancel";
      return call("POST", `/shipments/${id}/${action}`, { headers });
    }
    case "status":
      return setStatus(tenant, s.order.id, { status: command.to });
  }
}

/** The books after any sequence: stock, reservations, the lines' quantities and the shipments agree. */
async function assertWhole(s: Awaited<ReturnType<typeof scene>>) {
  const order = (await call("GET", `/orders/${s.order.id}`, { headers: tenant.admin })).body.data;
  const shipments = (await call("GET", `/orders/${s.order.id}/shipments`, { headers: tenant.admin })).body
    .data;
  for (const [i, line] of order.lines.entries()) {
    const shipped = line.shippedQuantity ?? 0;
    const backordered = line.backorderedQuantity ?? 0;
    const open = line.quantity - shipped - backordered;
    expect(open).toBeGreaterThanOrEqual(0);
    expect(shipped + backordered + open).toBe(line.quantity);
    const inShipments = shipments
      .filter((sh) => sh.status !== "cancelled")
      .flatMap((sh) => sh.packages.flatMap((p) => p.lines))
      .filter((l) => l.orderLineId === line.id)
      .reduce((sum, l) => sum + l.quantity, 0);
    expect(inShipments, `line ${i + 1}: shipped vs the shipments' contents`).toBe(shipped);
    const product = s.products[i] as { id: string };
    // Per level: never negative, never more reserved than on hand (available >= 0, packing location too),
    // the ledger sums to on hand; the product's units are all somewhere or shipped.
    const levels = await checkedStockOf(tenant, product.id);
    const reserved = levels.reduce((sum, l) => sum + l.reserved, 0);
    expect(await openReservations(tenant, product.id)).toBe(reserved);
    expect(levels.reduce((sum, l) => sum + l.onHand, 0) + shipped).toBe(10);
    if (order.status === "cancelled" || order.status === "shipped" || order.status === "delivered")
      expect(reserved).toBe(0);
  }
  // Partly shipped means part is still to ship: a short or shipment that closes the last units ships the order.
  if (order.status === "partially_shipped") {
    expect(
      order.lines.some((l) => l.quantity - (l.shippedQuantity ?? 0) - (l.backorderedQuantity ?? 0) > 0),
    ).toBe(true);
  }
}

describe("fulfilment property", () => {
  it("any sequence of picks, shorts, shipments, cancellations, dispatches and status updates keeps the books whole", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 12 }), async (commands) => {
        const s = await scene();
        for (const command of commands) {
          const res = await run(s, command);
          if (res)
            expect([200, 201, 400, 409], `${command.kind}: ${JSON.stringify(res.body)}`).toContain(
              res.status,
            );
        }
        await assertWhole(s);
      }),
      { numRuns: 20 },
    );
  }, 240_000);
});
