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
import { checkedStockOf } from "./support/database";
import { call } from "./support/http";

// Random sequences of shipments (created, dispatched, cancelled), returns (created, authorized, closed,
// rejected, cancelled) and receipts (restock, quarantine, scrap), each answered by the API as it likes, must
// never return more than shipped on a line and must leave the ledger summing to on hand at every location.

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const step = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("ship" as const),
      line: fc.nat(1),
      quantity: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("dispatch" as const), which: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("cancelShipment" as const), which: fc.nat(3) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("return" as const),
      line: fc.nat(1),
      quantity: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("status" as const),
      which: fc.nat(3),
      to: fc.constantFrom("authorized", "authorized", "closed", "rejected", "cancelled"),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("receive" as const),
      which: fc.nat(3),
      quantity: fc.integer({ min: 1, max: 2 }),
      disposition: fc.constantFrom("restock" as const, "quarantine" as const, "scrap" as const),
    }),
  },
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/**
 * An order of 3 and 2 units (10 of each in one bin), 1 of each dispatched and 1 of the first authorized back, with a
 * quarantine bin beside it.
 */
async function scene() {
  const warehouse = await createWarehouse(tenant);
  const bin = await createLocation(tenant, warehouse.id);
  const quarantine = await createLocation(tenant, warehouse.id, { sellable: false });
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
  // Part of each line already went out, so returns can start at once.
  const first = await call("POST", `/orders/${order.id}/shipments`, {
    headers: tenant.admin,
    body: {
      packages: order.lines.map((l) => ({
        weight: { value: 1, unit: "kg" },
        lines: [{ orderLineId: l.id, quantity: 1 }],
      })),
    },
  });
  await call("POST", `/shipments/${first.body.data.id}/dispatch`, { headers: tenant.admin });
  // And one of them is on its way back, authorized.
  const rma = await call("POST", "/returns", {
    headers: tenant.admin,
    body: { orderId: order.id, lines: [{ orderLineId: order.lines[0]?.id, quantity: 1, reason: "damaged" }] },
  });
  await call("PATCH", `/returns/${rma.body.data.id}/status`, {
    headers: tenant.admin,
    body: { status: "authorized" },
  });
  return { bin, quarantine, products, order, shipments: [first.body.data.id], returns: [rma.body.data.id] };
}
type Scene = Awaited<ReturnType<typeof scene>>;

/** Receipts that succeeded over all runs: the property must exercise them, not only refusals. */
let receipts = 0;

const pick = <T>(items: readonly T[], which: number) => items[which % Math.max(items.length, 1)];

async function run(s: Scene, command: Step) {
  const headers = tenant.admin;
  switch (command.kind) {
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
    case "dispatch":
    case "cancelShipment": {
      const id = pick(s.shipments, command.which);
      if (!id) return undefined;
      return call("POST", `/shipments/${id}/${command.kind === "dispatch" ? "dispatch" : "cancel"}`, {
        headers,
      });
    }
    case "return": {
      const res = await call("POST", "/returns", {
        headers,
        body: {
          orderId: s.order.id,
          lines: [
            { orderLineId: s.order.lines[command.line]?.id, quantity: command.quantity, reason: "damaged" },
          ],
        },
      });
      if (res.status === 201) s.returns.push(res.body.data.id);
      return res;
    }
    case "status": {
      const id = pick(s.returns, command.which);
      if (!id) return undefined;
      return call("PATCH", `/returns/${id}/status`, { headers, body: { status: command.to } });
    }
    case "receive": {
      const id = pick(s.returns, command.which);
      if (!id) return undefined;
      const rma = (await call("GET", `/returns/${id}`, { headers })).body.data;
      const locationId = { restock: s.bin.id, quarantine: s.quarantine.id, scrap: undefined }[
        command.disposition
      ];
      const res = await call("POST", `/returns/${id}/receipts`, {
        headers,
        body: {
          lines: [
            {
              returnLineId: rma.lines[0]?.id,
              quantity: command.quantity,
              disposition: command.disposition,
              ...(locationId ? { locationId } : {}),
            },
          ],
        } as never,
      });
      if (res.status === 200) receipts++;
      return res;
    }
  }
}

/** The books after any sequence: what returns claim fits what shipped; the ledger sums to on hand everywhere. */
async function assertWhole(s: Scene) {
  const headers = tenant.admin;
  const order = (await call("GET", `/orders/${s.order.id}`, { headers })).body.data;
  const shipments = (await call("GET", `/orders/${s.order.id}/shipments`, { headers })).body.data;
  const returns = (await call("GET", `/returns?orderId=${s.order.id}&pageSize=100`, { headers })).body.data
    .items;
  for (const [i, line] of order.lines.entries()) {
    const dispatched = shipments
      .filter((sh) => sh.status === "dispatched")
      .flatMap((sh) => sh.packages.flatMap((p) => p.lines))
      .filter((l) => l.orderLineId === line.id)
      .reduce((sum, l) => sum + l.quantity, 0);
    const ended = (status: string) => ["closed", "rejected", "cancelled"].includes(status);
    const returnLines = returns.flatMap((r) =>
      r.lines.filter((l) => l.orderLineId === line.id).map((l) => ({ ...l, status: r.status })),
    );
    const claimed = returnLines.reduce(
      (sum, l) => sum + (ended(l.status) ? l.receivedQuantity : l.quantity),
      0,
    );
    const received = returnLines.reduce((sum, l) => sum + l.receivedQuantity, 0);
    for (const l of returnLines) expect(l.receivedQuantity).toBeLessThanOrEqual(l.quantity);
    expect(claimed, `line ${i + 1}: claimed vs dispatched`).toBeLessThanOrEqual(dispatched);
    expect(received, `line ${i + 1}: returned vs dispatched`).toBeLessThanOrEqual(dispatched);
    const back = returns
      .flatMap((r) => r.receipts.flatMap((rc) => rc.lines))
      .filter((l) => l.productId === line.productId && l.disposition !== "scrap")
      .reduce((sum, l) => sum + l.quantity, 0);
    const levels = await checkedStockOf(tenant, line.productId);
    expect(levels.reduce((sum, l) => sum + l.onHand, 0)).toBe(10 - (line.shippedQuantity ?? 0) + back);
    expect(levels.find((l) => l.locationId === s.quarantine.id)?.reserved ?? 0).toBe(0);
  }
}

describe("returns property", () => {
  it("any sequence of shipments, returns and receipts returns at most what shipped and keeps the ledger whole", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 6, maxLength: 16 }), async (commands) => {
        const s = await scene();
        for (const command of commands) {
          const res = await run(s, command);
          if (res)
            expect([200, 201, 409], `${command.kind}: ${JSON.stringify(res.body)}`).toContain(res.status);
        }
        await assertWhole(s);
      }),
      { numRuns: 15 },
    );
    expect(receipts).toBeGreaterThan(0);
  }, 300_000);
});
