import { beforeAll, describe, expect, it } from "vitest";
import { levelsIn } from "./support/api-types";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  receiveLot,
  salesOrder,
  setStatus,
  type TestTenant,
} from "./support/builders";
import { checkedStockOf } from "./support/database";
import { call } from "./support/http";

// Returns of what a plain line does not cover: a kit line returned by its own id, and lot- and serial-tracked
// units (a lot or serial comes back only if it shipped on that order line, and restocked units rejoin their lot).

let tenant: TestTenant;
let warehouseId: string;
let bin: { id: string; code: string };
beforeAll(async () => {
  tenant = await createTenant();
  warehouseId = (await createWarehouse(tenant)).id;
  bin = await createLocation(tenant, warehouseId);
});

const createReturn = (body: Record<string, unknown>) =>
  call("POST", "/returns", { headers: tenant.admin, body });
const authorize = async (id: string) =>
  expect(
    (await call("PATCH", `/returns/${id}/status`, { headers: tenant.admin, body: { status: "authorized" } }))
      .status,
  ).toBe(200);
const receive = (id: string, lines: Record<string, unknown>[]) =>
  call("POST", `/returns/${id}/receipts`, { headers: tenant.admin, body: { lines } });

/** A shipped sales order of `lines` from the tenant's warehouse (the status update's dispatched shipment). */
async function shipped(
  lines: { productId: string; quantity: number; lotNumber?: string }[],
  serials: { lineNo: number; serialNumbers: string[] }[] = [],
) {
  const order = await salesOrder(tenant, lines, { warehouseId });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  const data = order.body.data;
  const shipping = await setStatus(tenant, data.id, {
    status: "shipped",
    ...(serials.length
      ? {
          lines: serials.map((s) => ({
            lineId: data.lines.find((l) => l.lineNo === s.lineNo)?.id,
            serialNumbers: s.serialNumbers,
          })),
        }
      : {}),
  });
  expect(shipping.status, JSON.stringify(shipping.body)).toBe(200);
  return data;
}

describe("returning a kit line by its own id", () => {
  it("returns each component line, quantity x units per kit, with the components' limits", async () => {
    const a = await createProduct(tenant);
    const b = await createProduct(tenant);
    await adjustStock(tenant, a.id, bin.id, 20);
    await adjustStock(tenant, b.id, bin.id, 20);
    const kit = await createProduct(tenant, {
      type: "kit",
      components: [
        { productId: a.id, quantity: 2 },
        { productId: b.id, quantity: 3 },
      ],
    });
    const order = await shipped([{ productId: kit.id, quantity: 3 }]);
    const kitLine = order.kitLines[0]?.id as string;
    const lineOf = (productId: string) => order.lines.find((l) => l.productId === productId)?.id as string;

    const rma = await createReturn({
      orderId: order.id,
      lines: [{ orderLineId: kitLine, quantity: 2, reason: "unwanted_gift" }],
    });
    expect(rma.status, JSON.stringify(rma.body)).toBe(201);
    expect(rma.body.data.lines).toMatchObject([
      { lineNo: 1, orderLineId: lineOf(a.id), productId: a.id, quantity: 4, reason: "unwanted_gift" },
      { lineNo: 2, orderLineId: lineOf(b.id), productId: b.id, quantity: 6, reason: "unwanted_gift" },
    ]);

    // One kit is left to return: a component line already returned on its own counts against the kit line.
    const oneOfA = await createReturn({
      orderId: order.id,
      lines: [{ orderLineId: lineOf(a.id), quantity: 1, reason: "damaged" }],
    });
    expect(oneOfA.status).toBe(201);
    const over = await createReturn({
      orderId: order.id,
      lines: [{ orderLineId: kitLine, quantity: 1, reason: "unwanted_gift" }],
    });
    expect(over.status).toBe(409);
    expect(over.body.errors).toEqual([
      `lines[0].quantity: order line ${lineOf(a.id)} (component of kit line ${kitLine}) shipped 6, earlier returns claim 5, returning 2`,
    ]);

    // Its components are received as any return line, back into stock.
    await authorize(rma.body.data.id);
    const received = await receive(
      rma.body.data.id,
      rma.body.data.lines.map((l) => ({
        returnLineId: l.id,
        quantity: l.quantity,
        disposition: "restock",
        locationId: bin.id,
      })),
    );
    expect(received.status, JSON.stringify(received.body)).toBe(200);
    expect(received.body.data.status).toBe("received");
    expect((await checkedStockOf(tenant, a.id)).find((l) => l.locationId === bin.id)?.onHand).toBe(
      20 - 6 + 4,
    );
    expect((await checkedStockOf(tenant, b.id)).find((l) => l.locationId === bin.id)?.onHand).toBe(
      20 - 9 + 6,
    );
  });

  it("refuses a kit line whose components would pass the return's line limit (400), and an unknown line (404)", async () => {
    const components = [];
    for (let i = 0; i < 50; i += 1) {
      const component = await createProduct(tenant);
      await adjustStock(tenant, component.id, bin.id, 10);
      components.push(component);
    }
    const kit = await createProduct(tenant, {
      type: "kit",
      components: components.map((c) => ({ productId: c.id, quantity: 1 })),
    });
    const order = await shipped([{ productId: kit.id, quantity: 10 }]);
    const kitLine = order.kitLines[0]?.id as string;
    // 10 request lines of the kit line are 500 return lines: at the limit.
    const atLimit = await createReturn({
      orderId: order.id,
      lines: Array.from({ length: 10 }, () => ({ orderLineId: kitLine, quantity: 1, reason: "r" })),
    });
    expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(201);
    expect(atLimit.body.data.lines).toHaveLength(500);
    const past = await createReturn({
      orderId: order.id,
      lines: Array.from({ length: 11 }, () => ({ orderLineId: kitLine, quantity: 1, reason: "r" })),
    });
    expect(past.status).toBe(400);
    expect(past.body.errors).toEqual([
      "lines: 550 return lines once kit lines become their components; at most 500",
    ]);
    const unknown = crypto.randomUUID();
    const missing = await createReturn({
      orderId: order.id,
      lines: [{ orderLineId: unknown, quantity: 1, reason: "r" }],
    });
    expect(missing.status).toBe(404);
    expect(missing.body.errors).toEqual([
      `lines[0].orderLineId: line ${unknown} not found on order ${order.number}`,
    ]);
  });
});

describe("returns of tracked products", () => {
  it("restocks lot-tracked units into the lot that shipped; a lot that did not ship is a 409", async () => {
    const product = await createProduct(tenant, { tracking: "lot" });
    await receiveLot(tenant, product.id, bin.id, 5, { lotNumber: "LOT-A" });
    await receiveLot(tenant, product.id, bin.id, 5, { lotNumber: "LOT-B" });
    const quarantine = await createLocation(tenant, warehouseId, { sellable: false });
    const order = await shipped([{ productId: product.id, quantity: 3, lotNumber: "LOT-A" }]);
    const rma = (
      await createReturn({
        orderId: order.id,
        lines: [{ orderLineId: order.lines[0]?.id, quantity: 3, reason: "damaged" }],
      })
    ).body.data;
    await authorize(rma.id);
    const line = rma.lines[0]?.id as string;

    const otherLot = await receive(rma.id, [
      { returnLineId: line, quantity: 1, disposition: "restock", locationId: bin.id, lotNumber: "LOT-B" },
    ]);
    expect(otherLot.status).toBe(409);
    expect(otherLot.body.errors).toEqual([
      `lines[0].lotNumber: lot LOT-B did not ship on order line ${order.lines[0]?.id}`,
    ]);
    const noLot = await receive(rma.id, [
      { returnLineId: line, quantity: 1, disposition: "restock", locationId: bin.id },
    ]);
    expect(noLot.status).toBe(400);

    const back = await receive(rma.id, [
      { returnLineId: line, quantity: 2, disposition: "restock", locationId: bin.id, lotNumber: "LOT-A" },
      {
        returnLineId: line,
        quantity: 1,
        disposition: "quarantine",
        locationId: quarantine.id,
        lotNumber: "LOT-A",
      },
    ]);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.data.status).toBe("received");

    const stock = await call("GET", `/inventory/stock?productId=${product.id}`, { headers: tenant.admin });
    expect(
      levelsIn(stock.body.data)
        .map((l) => [l.locationId === bin.id ? "bin" : "quarantine", l.lotNumber, l.onHand])
        .sort(),
    ).toEqual([
      ["bin", "LOT-A", 4],
      ["bin", "LOT-B", 5],
      ["quarantine", "LOT-A", 1],
    ]);
    await checkedStockOf(tenant, product.id);
  });

  it("takes back only serials that shipped on the order line, once each; restocked serials are in stock again", async () => {
    const product = await createProduct(tenant, { tracking: "serial" });
    await call("POST", "/inventory/adjustments", {
      headers: tenant.admin,
      body: {
        productId: product.id,
        locationId: bin.id,
        quantity: 4,
        reason: "received",
        serialNumbers: ["S1", "S2", "S3", "S4"],
      },
    });
    const order = await shipped(
      [{ productId: product.id, quantity: 2 }],
      [{ lineNo: 1, serialNumbers: ["S1", "S2"] }],
    );
    const orderLine = order.lines[0]?.id as string;
    const rma = (
      await createReturn({
        orderId: order.id,
        lines: [{ orderLineId: orderLine, quantity: 2, reason: "damaged" }],
      })
    ).body.data;
    await authorize(rma.id);
    const line = rma.lines[0]?.id as string;
    const restock = (serialNumbers: string[]) => ({
      returnLineId: line,
      quantity: serialNumbers.length,
      disposition: "restock",
      locationId: bin.id,
      serialNumbers,
    });

    // S3 never shipped (it is still in the bin); S9 does not exist.
    const notShipped = await receive(rma.id, [restock(["S3", "S9"])]);
    expect(notShipped.status).toBe(409);
    expect(notShipped.body.errors).toEqual([
      `lines[0].serialNumbers: S3 did not ship on order line ${orderLine}`,
      `lines[0].serialNumbers: S9 did not ship on order line ${orderLine}`,
      "lines[0].serialNumbers: S3 is already in stock",
    ]);
    const first = await receive(rma.id, [restock(["S1"])]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await receive(rma.id, [restock(["S1"])]);
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([
      `lines[0].serialNumbers: S1 was already received back on return ${rma.number}`,
      "lines[0].serialNumbers: S1 is already in stock",
    ]);

    const last = await receive(rma.id, [restock(["S2"])]);
    expect(last.body.data.status).toBe("received");
    const serials = await call("GET", `/inventory/movements?reference=${rma.id}`, { headers: tenant.admin });
    expect(serials.body.data.items.map((m) => m.serialNumbers).sort()).toEqual([["S1"], ["S2"]]);
    // All four serials are in the bin again, and a new order can ship a returned one.
    await shipped([{ productId: product.id, quantity: 1 }], [{ lineNo: 1, serialNumbers: ["S1"] }]);
    expect((await checkedStockOf(tenant, product.id)).find((l) => l.locationId === bin.id)?.onHand).toBe(3);
  });
});
