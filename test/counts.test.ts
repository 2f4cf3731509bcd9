import { beforeAll, describe, expect, it } from "vitest";
import type { Method } from "./support/api-types";
import {
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  newBins,
  salesOrder,
  scopedKey,
  seedLocation,
  seedStockedProducts,
  seedWarehouse,
  setStatus,
  type TestTenant,
  tenantWithWarehouse,
  userWithRole,
} from "./support/builders";
import { levelsWithLedger, outboxEvents, stockOf, tenantDatabase } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
let warehouseId: string;

beforeAll(async () => {
  ({ tenant, warehouseId } = await tenantWithWarehouse());
});

const adjust = (body: Record<string, unknown>) =>
  call("POST", "/inventory/adjustments", { headers: tenant.admin, body: { reason: "test", ...body } });

/** A new warehouse with `locations` bins and a product stocked at each with `quantity`. */
async function stockedSite(quantity: number, locations = 1, product: Record<string, unknown> = {}) {
  const site = (await createWarehouse(tenant)).id;
  const bins = await newBins(tenant, site, locations);
  const productId = (await createProduct(tenant, product)).id;
  for (const locationId of bins) {
    const res = await adjust({
      productId,
      locationId,
      quantity,
      ...(product.tracking === "lot" ? { lotNumber: "C-LOT" } : {}),
    });
    expect(res.status).toBe(201);
  }
  return { site, bins, productId };
}

async function startCount(body: Record<string, unknown>) {
  const res = await call("POST", "/inventory/counts", { headers: tenant.admin, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const record = (id: string, lines: unknown[], headers = tenant.admin) =>
  call("PUT", `/inventory/counts/${id}/lines`, { headers, body: { lines } });
const act = (id: string, action: "submit" | "approve" | "cancel", headers = tenant.admin) =>
  call("POST", `/inventory/counts/${id}/${action}`, { headers });

async function onHandOf(productId: string) {
  const levels = await stockOf(tenant, productId);
  for (const level of levels) expect(level.ledger).toBe(level.onHand);
  return levels;
}

describe("cycle counts", () => {
  it("snapshot, count with a pick in the middle, approve: only the real difference becomes an adjustment", async () => {
    const { site, bins, productId } = await stockedSite(10, 2);
    const started = await startCount({ warehouseId: site });
    expect(started.status).toBe("open");
    expect(started.lines.map((l) => l.expected)).toEqual([10, 10]);
    // A pick of 3 from the first bin while counting: the counter finds 7 there, which is no variance.
    const order = await salesOrder(tenant, [{ productId, quantity: 3 }], { warehouseId: site });
    expect(order.status).toBe(201);
    for (const status of ["confirmed", "picking", "shipped"])
      await setStatus(tenant, order.body.data.id, { status });
    const levels = await onHandOf(productId);
    const picked = levels.find((l) => l.onHand === 7)?.locationId as string;
    const untouched = bins.find((b) => b !== picked) as string;
    const counted = await record(started.id, [
      { productId, locationId: picked, counted: 7 },
      { productId, locationId: untouched, counted: 12 },
      { productId, locationId: untouched, counted: 9 }, // the last value of a line wins
    ]);
    expect(counted.status, JSON.stringify(counted.body)).toBe(200);
    const byLocation = (data: typeof counted.body.data, id: string) =>
      data.lines.find((l) => l.locationId === id);
    expect(byLocation(counted.body.data, picked)).toMatchObject({
      expected: 10,
      onHandAtCount: 7,
      counted: 7,
      variance: 0,
    });
    expect(byLocation(counted.body.data, untouched)).toMatchObject({
      expected: 10,
      onHandAtCount: 10,
      counted: 9,
      variance: -1,
    });

    expect((await act(started.id, "submit")).body.data.status).toBe("submitted");
    const late = await record(started.id, [{ productId, locationId: picked, counted: 1 }]);
    expect(late.status).toBe(409);
    const approved = await act(started.id, "approve");
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data).toMatchObject({
      status: "approved",
      totals: { lines: 2, counted: 2, withVariance: 1, variance: -1 },
    });
    const after = await onHandOf(productId);
    expect(after.map((l) => l.onHand).sort()).toEqual([7, 9]);
    const ledger = await call("GET", `/inventory/movements?reference=${started.id}`, {
      headers: tenant.admin,
    });
    expect(ledger.body.data.items).toEqual([
      expect.objectContaining({
        locationId: untouched,
        delta: -1,
        reason: "cycle_count",
        referenceType: "inventory_count",
      }),
    ]);
  });

  it("approval is idempotent under concurrency: one set of adjustments and one event", async () => {
    const { site, bins, productId } = await stockedSite(5, 1);
    const started = await startCount({ warehouseId: site, productIds: [productId] });
    await record(started.id, [{ productId, locationId: bins[0], counted: 8 }]);
    await act(started.id, "submit");
    const results = await Promise.all([1, 2, 3, 4].map(() => act(started.id, "approve")));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    for (const r of results) expect(r.body.data.status).toBe("approved");
    expect((await onHandOf(productId)).map((l) => l.onHand)).toEqual([8]);
    const ledger = await call("GET", `/inventory/movements?reference=${started.id}`, {
      headers: tenant.admin,
    });
    expect(ledger.body.data.items.map((m) => m.delta)).toEqual([3]);
    const events = await outboxEvents(tenant, /^inventory\.count_approved$/);
    expect(events.filter((e) => e.payload.id === started.id)).toHaveLength(1);
  });

  it("is atomic: a variance the stock cannot give (reserved meanwhile) fails the whole approval, changing nothing", async () => {
    const { site, bins, productId } = await stockedSite(4, 2);
    const started = await startCount({ locationIds: bins });
    await record(started.id, [
      { productId, locationId: bins[0], counted: 6 },
      { productId, locationId: bins[1], counted: 0 },
    ]);
    await act(started.id, "submit");
    // After counting, an order reserves what the second bin has: removing 4 there is no longer possible.
    const order = await salesOrder(tenant, [{ productId, quantity: 8 }], { warehouseId: site });
    expect(order.status).toBe(201);
    const refused = await act(started.id, "approve");
    expect(refused.status).toBe(409);
    expect((await onHandOf(productId)).map((l) => l.onHand)).toEqual([4, 4]);
    expect(
      (await call("GET", `/inventory/counts/${started.id}`, { headers: tenant.admin })).body.data.status,
    ).toBe("submitted");
    expect((await act(started.id, "cancel")).body.data.status).toBe("cancelled");
    expect((await act(started.id, "approve")).status).toBe(409);
  });

  it("releases a hold that expired (not yet swept) in the way of a removal; an unexpired hold still blocks it", async () => {
    const { bins, productId } = await stockedSite(4);
    const started = await startCount({ locationIds: bins });
    await record(started.id, [{ productId, locationId: bins[0], counted: 0 }]);
    await act(started.id, "submit");
    const hold = await call("POST", "/inventory/holds", {
      headers: tenant.admin,
      body: { productId, quantity: 4, expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(hold.status).toBe(201);
    const holdId = hold.body.data.id;
    const blocked = await act(started.id, "approve");
    expect(blocked.status).toBe(409);
    expect(blocked.body.message).toBe(
      "Stock changed since the count: a variance would remove stock that is reserved",
    );
    // The hold's time passes; the minute's sweep has not run yet.
    await (await tenantDatabase(tenant.id))
      .prepare("update stock_holds set expires_at = ? where id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), holdId)
      .run();
    const approved = await act(started.id, "approve");
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.status).toBe("approved");
    expect((await onHandOf(productId)).map((l) => [l.onHand, l.reserved])).toEqual([[0, 0]]);
    const released = await call("GET", `/inventory/holds/${holdId}`, { headers: tenant.admin });
    expect(released.body.data).toMatchObject({ status: "expired", releasedAt: expect.any(String) });
    const events = (await outboxEvents(tenant, /^inventory\.hold_released$/)).filter(
      (e) => e.payload.id === holdId,
    );
    expect(events.map((e) => e.payload)).toEqual([
      expect.objectContaining({ reason: "expired", status: "expired" }),
    ]);
  });

  it("counts lots, refuses lines outside the count, and lists counts", async () => {
    const { site, bins, productId } = await stockedSite(3, 1, { tracking: "lot" });
    const started = await startCount({ warehouseId: site });
    expect(started.lines).toEqual([expect.objectContaining({ lotNumber: "C-LOT", expected: 3 })]);
    const elsewhere = (await createLocation(tenant, warehouseId)).id;
    const bad = await record(started.id, [
      { productId, locationId: bins[0], counted: 1 },
      { productId, locationId: elsewhere, lotNumber: "C-LOT", counted: 1 },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      expect.stringMatching(/^lines\[0\]\.lotNumber: .* lot-tracked: name the lot$/),
      expect.stringMatching(/^lines\[1\]\.locationId: .* is not in this count$/),
    ]);
    const ok = await record(started.id, [{ productId, locationId: bins[0], lotNumber: "C-LOT", counted: 2 }]);
    expect(ok.body.data.lines[0]).toMatchObject({ variance: -1 });
    const list = await call("GET", `/inventory/counts?warehouseId=${site}&status=open`, {
      headers: tenant.admin,
    });
    expect(list.body.data.items.map((c) => c.id)).toEqual([started.id]);
  });
});

describe("counting serial-tracked stock", () => {
  it("records the serials found: missing ones leave stock, unknown found ones are created, a misplaced one moves", async () => {
    const productId = (await createProduct(tenant, { tracking: "serial" })).id;
    const site = (await createWarehouse(tenant)).id;
    const [a = "", b = ""] = await newBins(tenant, site, 2);
    expect(
      (await adjust({ productId, locationId: a, quantity: 3, serialNumbers: ["S1", "S2", "S3"] })).status,
    ).toBe(201);
    expect((await adjust({ productId, locationId: b, quantity: 1, serialNumbers: ["S4"] })).status).toBe(201);
    const started = await startCount({ warehouseId: site });
    const lineAt = (data: { lines: { locationId: string }[] }, id: string) =>
      data.lines.find((l) => l.locationId === id);
    expect(lineAt(started, a)).toMatchObject({
      expected: 3,
      expectedSerials: ["S1", "S2", "S3"],
      serialNumbers: null,
    });
    expect(lineAt(started, b)).toMatchObject({ expected: 1, expectedSerials: ["S4"] });

    const bad = await record(started.id, [
      { productId, locationId: a, counted: 1 },
      { productId, locationId: b, counted: 2, serialNumbers: ["S4"] },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      expect.stringMatching(/^lines\[0\]\.serialNumbers: .* is serial-tracked/),
      "lines[1].serialNumbers: 1 serial numbers for a quantity of 2",
    ]);
    // At A: S2 and S3 are gone, S4 (on hand at B) and the unknown NEW-1 are there; at B nothing is.
    const counted = await record(started.id, [
      { productId, locationId: a, counted: 3, serialNumbers: ["S1", "S4", "NEW-1"] },
      { productId, locationId: b, counted: 0, serialNumbers: [] },
    ]);
    expect(counted.status, JSON.stringify(counted.body)).toBe(200);
    expect(lineAt(counted.body.data, a)).toMatchObject({
      variance: 0,
      serialNumbers: ["NEW-1", "S1", "S4"],
      missingSerials: ["S2", "S3"],
      foundSerials: ["NEW-1", "S4"],
    });
    expect(lineAt(counted.body.data, b)).toMatchObject({
      variance: -1,
      missingSerials: ["S4"],
      foundSerials: [],
    });
    expect(counted.body.data.totals).toMatchObject({ counted: 2, withVariance: 2, variance: -1 });

    await act(started.id, "submit");
    const approved = await act(started.id, "approve");
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect((await onHandOf(productId)).map((l) => [l.locationId, l.onHand])).toEqual(
      expect.arrayContaining([
        [a, 3],
        [b, 0],
      ]),
    );
    const ledger = await call("GET", `/inventory/movements?reference=${started.id}`, {
      headers: tenant.admin,
    });
    expect(
      ledger.body.data.items.map((m) => [m.locationId, m.delta, m.serialNumbers, m.onHandAfter]),
    ).toEqual(
      expect.arrayContaining([
        [a, -2, ["S2", "S3"], 1],
        [a, 2, ["NEW-1", "S4"], 3],
        [b, -1, ["S4"], 0],
      ]),
    );
    expect(ledger.body.data.items).toHaveLength(3);
    // The serials are where the count found them: S2 is no longer in stock, S4 and NEW-1 are at A.
    const gone = await adjust({ productId, locationId: a, quantity: -1, serialNumbers: ["S2"] });
    expect(gone.status).toBe(409);
    for (const serial of ["S4", "NEW-1"]) {
      expect((await adjust({ productId, locationId: a, quantity: -1, serialNumbers: [serial] })).status).toBe(
        201,
      );
    }
  });

  it("refuses to approve a found serial that is still in stock where the count does not take it from", async () => {
    const productId = (await createProduct(tenant, { tracking: "serial" })).id;
    const site = (await createWarehouse(tenant)).id;
    const [a = "", outside = ""] = await newBins(tenant, site, 2);
    await adjust({ productId, locationId: a, quantity: 1, serialNumbers: ["T1"] });
    await adjust({ productId, locationId: outside, quantity: 1, serialNumbers: ["T2"] });
    const started = await startCount({ locationIds: [a] });
    await record(started.id, [{ productId, locationId: a, counted: 2, serialNumbers: ["T1", "T2"] }]);
    await act(started.id, "submit");
    const refused = await act(started.id, "approve");
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      `lines: serial T2 is in stock at location ${outside}, which this count does not take it from`,
    ]);
    expect((await onHandOf(productId)).map((l) => l.onHand)).toEqual([1, 1]);
  });
});

describe("a large cycle count", () => {
  it("approves 1,000 lines in one atomic batch within D1's limits: every variance, its ledger row and low-stock event", async () => {
    // Its own tenant: the seeded SKUs P-0000.. must not meet other tests' products.
    const big = await createTenant();
    const site = await seedWarehouse(big);
    const bin = await seedLocation(big, site);
    const productIds = await seedStockedProducts(big, bin, 1000, () => 10);
    const started = await call("POST", "/inventory/counts", {
      headers: big.admin,
      body: { locationIds: [bin.id] },
    });
    expect(started.status).toBe(201);
    expect(started.body.data.lines).toHaveLength(1000);
    const id = started.body.data.id;
    // Even products: 2 found; odd ones: 6 missing, which takes them to 4, below their reorder point of 5.
    const lines = productIds.map((productId, i) => ({
      productId,
      locationId: bin.id,
      counted: i % 2 ? 4 : 12,
    }));
    for (const part of [lines.slice(0, 500), lines.slice(500)]) {
      const recorded = await call("PUT", `/inventory/counts/${id}/lines`, {
        headers: big.admin,
        body: { lines: part },
      });
      expect(recorded.status).toBe(200);
    }
    await call("POST", `/inventory/counts/${id}/submit`, { headers: big.admin });
    const approved = await call("POST", `/inventory/counts/${id}/approve`, { headers: big.admin });
    expect(approved.status, JSON.stringify(approved.body).slice(0, 500)).toBe(200);
    expect(approved.body.data.totals).toEqual({
      lines: 1000,
      counted: 1000,
      withVariance: 1000,
      variance: -2000,
    });
    const levels = await levelsWithLedger(big);
    expect(levels).toHaveLength(1000);
    for (const level of levels) expect(level.ledger).toBe(level.onHand);
    const onHand = new Map(levels.map((l) => [l.productId, l.onHand]));
    expect(productIds.map((p) => onHand.get(p))).toEqual(lines.map((l) => l.counted));
    const movements = await (await tenantDatabase(big.id))
      .prepare("select count(*) as n, sum(delta) as total from stock_movements where reference_id = ?")
      .bind(id)
      .first<{ n: number; total: number }>();
    expect(movements).toEqual({ n: 1000, total: -2000 });
    expect(await outboxEvents(big, /^inventory\.low_stock$/)).toHaveLength(500);
    expect(await outboxEvents(big, /^inventory\.count_approved$/)).toHaveLength(1);
  });
});

describe("cycle count access", () => {
  it("401 without a credential, 403 without the scope, 404 for another tenant's count; approving needs admin or a manager", async () => {
    const { site, bins, productId } = await stockedSite(2, 1);
    const started = await startCount({ warehouseId: site });
    await record(started.id, [{ productId, locationId: bins[0], counted: 2 }]);
    const reader = await scopedKey(tenant, ["read:inventory"]);
    const other = await createTenant();
    const routes: [Method, string, unknown?][] = [
      ["GET", "/inventory/counts"],
      ["GET", `/inventory/counts/${started.id}`],
      ["POST", "/inventory/counts", { warehouseId: site }],
      [
        "PUT",
        `/inventory/counts/${started.id}/lines`,
        { lines: [{ productId, locationId: bins[0], counted: 2 }] },
      ],
      ["POST", `/inventory/counts/${started.id}/submit`],
      ["POST", `/inventory/counts/${started.id}/approve`],
      ["POST", `/inventory/counts/${started.id}/cancel`],
    ];
    for (const [method, path, body] of routes) {
      expect((await call(method, path, { body })).status, `${method} ${path}`).toBe(401);
      if (method !== "GET")
        expect((await call(method, path, { headers: reader, body })).status, `${method} ${path}`).toBe(403);
      if (path.includes(started.id)) {
        expect((await call(method, path, { headers: other.admin, body })).status, `${method} ${path}`).toBe(
          404,
        );
      }
    }
    expect(
      (await call("GET", "/inventory/counts", { headers: await scopedKey(tenant, ["read:orders"]) })).status,
    ).toBe(403);
    await act(started.id, "submit");
    const operator = await userWithRole(tenant, "operator");
    expect((await act(started.id, "approve", operator)).status).toBe(403);
    const manager = await userWithRole(tenant, "manager");
    expect((await act(started.id, "approve", manager)).status).toBe(200);
  });
});
