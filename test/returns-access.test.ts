import { beforeAll, describe, expect, it } from "vitest";
import {
  createTenant,
  salesOrder,
  scopedKey,
  setStatus,
  stockedProduct,
  type TestTenant,
} from "./support/builders";
import { call } from "./support/http";

let tenant: TestTenant;
let other: TestTenant;
let orderId: string;
let orderLineId: string;
let locationId: string;
let rma: { id: string; lines: { id: string }[] };
beforeAll(async () => {
  [tenant, other] = [await createTenant(), await createTenant()];
  const stocked = await stockedProduct(tenant, 10);
  locationId = stocked.locationId;
  const order = (await salesOrder(tenant, [{ productId: stocked.productId, quantity: 3 }])).body.data;
  await setStatus(tenant, order.id, { status: "shipped" });
  orderId = order.id;
  orderLineId = order.lines[0]?.id as string;
  rma = (
    await call("POST", "/returns", {
      headers: tenant.admin,
      body: { orderId, lines: [{ orderLineId, quantity: 1, reason: "damaged" }] },
    })
  ).body.data;
});

const routes = (id: string) =>
  [
    ["GET", "/returns"],
    ["GET", `/returns/${id}`],
    ["POST", "/returns"],
    ["PATCH", `/returns/${id}/status`],
    ["POST", `/returns/${id}/receipts`],
  ] as const;

describe("return access", () => {
  it("needs a credential on every return route (401)", async () => {
    for (const [method, path] of routes(rma.id)) {
      const res = await call(method, path, { body: method === "GET" ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it("reads with read:orders, writes only with write:orders (403 otherwise)", async () => {
    const reader = await scopedKey(tenant, ["read:orders"]);
    const inventory = await scopedKey(tenant, ["read:inventory", "write:inventory"]);
    const writer = await scopedKey(tenant, ["write:orders"]);
    expect((await call("GET", "/returns", { headers: reader })).status).toBe(200);
    expect((await call("GET", `/returns/${rma.id}`, { headers: reader })).status).toBe(200);
    for (const [method, path] of routes(rma.id)) {
      const res = await call(method, path, { headers: inventory, body: method === "GET" ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    const body = { orderId, lines: [{ orderLineId, quantity: 1, reason: "x" }] };
    expect((await call("POST", "/returns", { headers: reader, body })).status).toBe(403);
    const patch = await call("PATCH", `/returns/${rma.id}/status`, {
      headers: reader,
      body: { status: "authorized" },
    });
    expect(patch.status).toBe(403);
    expect((await call("GET", `/returns/${rma.id}`, { headers: tenant.admin })).body.data.status).toBe(
      "requested",
    );
    // write:orders implies read:orders.
    expect((await call("GET", `/returns/${rma.id}`, { headers: writer })).status).toBe(200);
  });

  it("answers 404 for another tenant's return, order and lines, and lists none of them", async () => {
    expect((await call("GET", `/returns/${rma.id}`, { headers: other.admin })).status).toBe(404);
    const status = await call("PATCH", `/returns/${rma.id}/status`, {
      headers: other.admin,
      body: { status: "authorized" },
    });
    expect(status.status).toBe(404);
    const receipt = await call("POST", `/returns/${rma.id}/receipts`, {
      headers: other.admin,
      body: { lines: [{ returnLineId: rma.lines[0]?.id, quantity: 1, disposition: "scrap" }] },
    });
    expect(receipt.status).toBe(404);
    const create = await call("POST", "/returns", {
      headers: other.admin,
      body: { orderId, lines: [{ orderLineId, quantity: 1, reason: "x" }] },
    });
    expect(create.status).toBe(404);
    expect((await call("GET", "/returns", { headers: other.admin })).body.data.totalCount).toBe(0);
    expect((await call("GET", `/returns/${rma.id}`, { headers: tenant.admin })).body.data.status).toBe(
      "requested",
    );
  });
});

describe("bad input", () => {
  it("is a 400 naming each field, and changes nothing", async () => {
    const post = (body: unknown) => call("POST", "/returns", { headers: tenant.admin, body });
    const cases: [unknown, string[]][] = [
      [
        { orderId: "x", lines: [] },
        ["orderId: must be a UUID (a sales order)", "lines: must have at least one line"],
      ],
      [
        { orderId, lines: [{ orderLineId, quantity: 0, reason: " " }] },
        ["lines[0].quantity: must be a positive integer", "lines[0].reason: Reason is required"],
      ],
    ];
    for (const [body, errors] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors).toEqual(errors);
    }
    const patch = await call("PATCH", `/returns/${rma.id}/status`, {
      headers: tenant.admin,
      body: { status: "received" },
    });
    expect(patch.status).toBe(400);
    expect(patch.body.errors).toEqual(["status: must be authorized, rejected, cancelled or closed"]);

    const authorized = (
      await call("POST", "/returns", {
        headers: tenant.admin,
        body: { orderId, lines: [{ orderLineId, quantity: 1, reason: "x" }] },
      })
    ).body.data;
    await call("PATCH", `/returns/${authorized.id}/status`, {
      headers: tenant.admin,
      body: { status: "authorized" },
    });
    const receive = (lines: unknown) =>
      call("POST", `/returns/${authorized.id}/receipts`, { headers: tenant.admin, body: { lines } });
    const line = authorized.lines[0]?.id as string;
    const noPlace = await receive([{ returnLineId: line, quantity: 1, disposition: "restock" }]);
    expect(noPlace.status).toBe(400);
    expect(noPlace.body.errors).toEqual(["lines[0].locationId: must be a UUID"]);
    const badDisposition = await receive([
      { returnLineId: line, quantity: 1, disposition: "burn", locationId },
    ]);
    expect(badDisposition.body.errors).toEqual([
      "lines[0].disposition: must be restock, quarantine or scrap",
    ]);
    const lotOnPlain = await receive([
      { returnLineId: line, quantity: 1, disposition: "restock", locationId, lotNumber: "L1" },
    ]);
    expect(lotOnPlain.status).toBe(400);
    expect(lotOnPlain.body.errors).toEqual([
      expect.stringMatching(/^lines\[0\]\.lotNumber: product .* is not lot-tracked$/),
    ]);
    const after = (await call("GET", `/returns/${authorized.id}`, { headers: tenant.admin })).body.data;
    expect(after).toMatchObject({ status: "authorized", receipts: [], lines: [{ receivedQuantity: 0 }] });
  });
});
