import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { levelsIn } from "./support/api-types";
import {
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  day,
  fourLots,
  purchaseOrder,
  receiveLot,
  salesOrder,
  scopedKey,
  setStatus,
  type TestTenant,
  tenantWithWarehouse,
} from "./support/builders";
import { checkedStockOf, levelsWithLedger, outboxEvents, tenantDatabase } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
let warehouseId: string;

beforeAll(async () => {
  ({ tenant, warehouseId } = await tenantWithWarehouse());
});

const adjust = (body: Record<string, unknown>, headers = tenant.admin) =>
  call("POST", "/inventory/adjustments", { headers, body: { reason: "test", ...body } });

const lotTracked = async () => (await createProduct(tenant, { tracking: "lot" })).id;
const newLocation = async () => (await createLocation(tenant, warehouseId)).id;

describe("product tracking", () => {
  it("defaults to none, and changes only while the product has no stock", async () => {
    const product = await createProduct(tenant);
    expect(product.tracking).toBe("none");
    const location = await newLocation();
    expect((await adjust({ productId: product.id, locationId: location, quantity: 2 })).status).toBe(201);
    const refused = await call("PATCH", `/products/${product.id}`, {
      headers: tenant.admin,
      body: { tracking: "lot" },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/has stock/);
    await adjust({ productId: product.id, locationId: location, quantity: -2 });
    const changed = await call("PATCH", `/products/${product.id}`, {
      headers: tenant.admin,
      body: { tracking: "lot" },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.tracking).toBe("lot");
  });

  it("refuses lot or serial fields for an untracked product, and needs them for a tracked one (one message per problem)", async () => {
    const plain = (await createProduct(tenant)).id;
    const lotted = await lotTracked();
    const serial = (await createProduct(tenant, { tracking: "serial" })).id;
    const location = await newLocation();
    const untracked = await adjust({
      productId: plain,
      locationId: location,
      quantity: 1,
      lotNumber: "A",
      serialNumbers: ["S"],
    });
    expect(untracked.status).toBe(400);
    expect(untracked.body.errors).toEqual([
      expect.stringMatching(/^lotNumber: .* not lot-tracked/),
      expect.stringMatching(/^serialNumbers: .* not serial-tracked/),
    ]);
    const noLot = await adjust({ productId: lotted, locationId: location, quantity: 1 });
    expect(noLot.status).toBe(400);
    expect(noLot.body.errors).toEqual([expect.stringMatching(/^lotNumber: .* lot-tracked: name the lot/)]);
    const badSerials = await adjust({
      productId: serial,
      locationId: location,
      quantity: 3,
      serialNumbers: ["A", "A"],
    });
    expect(badSerials.status).toBe(400);
    // A repeated serial is refused with the request's shape, before the product's tracking is read.
    expect(badSerials.body.errors).toEqual(["serialNumbers: A is given more than once"]);
    const unknownLot = await adjust({
      productId: lotted,
      locationId: location,
      quantity: -1,
      lotNumber: "NOPE",
    });
    expect(unknownLot.status).toBe(409);
    expect(unknownLot.body.errors).toEqual([
      expect.stringMatching(/^lotNumber: product .* has no lot NOPE$/),
    ]);
    expect(
      await levelsWithLedger(tenant).then((l) =>
        l.filter((x) => [plain, lotted, serial].includes(x.productId)),
      ),
    ).toEqual([]);
  });
});

describe("stock per lot", () => {
  it("keeps a level per (product, location, lot), creating the lot on its first receipt; a known lot's expiry cannot be contradicted", async () => {
    const productId = await lotTracked();
    const location = await newLocation();
    const first = await receiveLot(tenant, productId, location, 5, {
      lotNumber: "L1",
      expiresAt: day(30),
      manufacturedAt: day(-10),
    });
    expect(first.stockLevel).toMatchObject({ lotNumber: "L1", expiresAt: day(30), onHand: 5 });
    expect(first.movement).toMatchObject({ lotNumber: "L1", delta: 5 });
    await receiveLot(tenant, productId, location, 2, { lotNumber: "L1" });
    await receiveLot(tenant, productId, location, 4, { lotNumber: "L2" });
    const clash = await adjust({
      productId,
      locationId: location,
      quantity: 1,
      lotNumber: "L1",
      expiresAt: day(31),
    });
    expect(clash.status).toBe(409);
    expect(clash.body.errors).toEqual([`expiresAt: lot L1 expires ${day(30)}, not ${day(31)}`]);

    const stock = await call("GET", `/inventory/stock?productId=${productId}`, { headers: tenant.admin });
    expect(levelsIn(stock.body.data).map((l) => [l.lotNumber, l.onHand, l.expiresAt])).toEqual([
      ["L1", 7, day(30)],
      ["L2", 4, null],
    ]);
    const byLot = await call("GET", `/inventory/stock?productId=${productId}&lotNumber=L2`, {
      headers: tenant.admin,
    });
    expect(byLot.body.data.items).toHaveLength(1);
    const lots = await call("GET", `/lots?productId=${productId}`, { headers: tenant.admin });
    expect(lots.body.data.items.map((l) => l.number)).toEqual(["L1", "L2"]);
    const lot = await call("GET", `/lots/${lots.body.data.items[0]!.id}`, { headers: tenant.admin });
    expect(lot.body.data).toMatchObject({
      number: "L1",
      expired: false,
      onHand: 7,
      manufacturedAt: day(-10),
    });
    expect(lot.body.data.stock).toEqual([
      expect.objectContaining({ locationId: location, onHand: 7, available: 7 }),
    ]);
    await checkedStockOf(tenant, productId);
  });

  it("transfers a lot as itself, and refuses more than the lot has at the source", async () => {
    const productId = await lotTracked();
    const [a, b] = [await newLocation(), await newLocation()];
    await receiveLot(tenant, productId, a, 3, { lotNumber: "T1" });
    await receiveLot(tenant, productId, a, 6, { lotNumber: "T2" });
    const body = { productId, fromLocationId: a, toLocationId: b };
    const tooMuch = await call("POST", "/inventory/transfers", {
      headers: tenant.admin,
      body: { ...body, quantity: 4, lotNumber: "T1" },
    });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.message).toBe("Insufficient stock: requested 4, available 3");
    const moved = await call("POST", "/inventory/transfers", {
      headers: tenant.admin,
      body: { ...body, quantity: 2, lotNumber: "T1" },
    });
    expect(moved.status).toBe(201);
    expect(moved.body.data.to).toMatchObject({ locationId: b, lotNumber: "T1", onHand: 2 });
    const levels = await checkedStockOf(tenant, productId);
    expect(levels.map((l) => l.onHand).sort()).toEqual([1, 2, 6]);
  });

  it("receives purchase orders per lot, creating new lots with their expiry", async () => {
    const productId = await lotTracked();
    const location = await newLocation();
    const po = await purchaseOrder(tenant, warehouseId, [{ productId, quantity: 10 }]);
    const orderId = po.body.data.id;
    const lineId = po.body.data.lines[0]!.id;
    expect((await setStatus(tenant, orderId, { status: "ordered" })).status).toBe(200);
    const receive = (lines: unknown[]) =>
      call("POST", `/orders/${orderId}/receive`, { headers: tenant.admin, body: { lines } });
    const missing = await receive([{ lineId, quantity: 4, locationId: location }]);
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([expect.stringMatching(/^lines\[0\]\.lotNumber: /)]);
    const ok = await receive([
      { lineId, quantity: 4, locationId: location, lotNumber: "P1", expiresAt: day(90) },
      { lineId, quantity: 6, locationId: location, lotNumber: "P2" },
    ]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const lots = await call("GET", `/lots?productId=${productId}`, { headers: tenant.admin });
    expect(lots.body.data.items.map((l) => [l.number, l.expiresAt])).toEqual([
      ["P1", day(90)],
      ["P2", null],
    ]);
    const levels = await checkedStockOf(tenant, productId);
    expect(levels.map((l) => l.onHand).sort()).toEqual([4, 6]);
  });
});

describe("first-expiring-first-out allocation", () => {
  it("allocates across three lots by expiry, skipping an expired one; shipping consumes exactly the allocated lots", async () => {
    const { productId } = await fourLots(tenant, warehouseId);
    const order = await salesOrder(tenant, [{ productId, quantity: 8 }]);
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const [line] = order.body.data.lines;
    expect(line!.lots!.map((l) => [l.lotNumber, l.quantity])).toEqual([
      ["SOON", 5],
      ["LATE", 3],
    ]);
    // 5 LATE left at most 2, NEVER 5: 7 unexpired; the expired lot's 5 are never offered.
    const short = await salesOrder(tenant, [{ productId, quantity: 8 }]);
    expect(short.status).toBe(409);
    expect(short.body.errors).toEqual([
      expect.stringMatching(/^lines\[0\]: product \S+ \(.+\) requested 8, available 7$/),
    ]);

    const orderId = order.body.data.id;
    await setStatus(tenant, orderId, { status: "confirmed" });
    await setStatus(tenant, orderId, { status: "picking" });
    const shipped = await setStatus(tenant, orderId, { status: "shipped" });
    expect(shipped.status, JSON.stringify(shipped.body)).toBe(200);
    const levels = await checkedStockOf(tenant, productId);
    const lotIds = await lotIdsByNumber(productId);
    const onHand = (lot: string) => levels.find((l) => l.lotId === lotIds[lot])?.onHand;
    expect([onHand("SOON"), onHand("LATE"), onHand("GONE"), onHand("NEVER")]).toEqual([0, 2, 5, 5]);
  });

  it("pins a lot per line, and refuses a pin on an expired or unknown lot", async () => {
    const productId = await lotTracked();
    const location = await newLocation();
    await receiveLot(tenant, productId, location, 5, { lotNumber: "EARLY", expiresAt: day(5) });
    await receiveLot(tenant, productId, location, 5, { lotNumber: "PINNED", expiresAt: day(50) });
    await receiveLot(tenant, productId, location, 5, { lotNumber: "OLD", expiresAt: day(-1) });
    const pinned = await salesOrder(tenant, [{ productId, quantity: 2, lotNumber: "PINNED" } as never]);
    expect(pinned.status).toBe(201);
    expect(pinned.body.data.lines[0]).toMatchObject({
      lotNumber: "PINNED",
      lots: [expect.objectContaining({ lotNumber: "PINNED", quantity: 2 })],
    });
    const expired = await salesOrder(tenant, [{ productId, quantity: 1, lotNumber: "OLD" } as never]);
    expect(expired.status).toBe(409);
    expect(expired.body.errors).toEqual([
      expect.stringMatching(/lot OLD requested 1, available 0 \(expired lots/),
    ]);
    const unknown = await salesOrder(tenant, [{ productId, quantity: 1, lotNumber: "NONE" } as never]);
    expect(unknown.status).toBe(409);
    expect(unknown.body.errors).toEqual([
      expect.stringMatching(/^lines\[0\]\.lotNumber: product .* has no lot NONE$/),
    ]);
    const untracked = (await createProduct(tenant)).id;
    const wrong = await salesOrder(tenant, [{ productId: untracked, quantity: 1, lotNumber: "X" } as never]);
    expect(wrong.status).toBe(400);
  });

  it("never oversells any lot under concurrent orders", async () => {
    const productId = await lotTracked();
    const [a, b] = [await newLocation(), await newLocation()];
    await receiveLot(tenant, productId, a, 4, { lotNumber: "C1", expiresAt: day(20) });
    await receiveLot(tenant, productId, b, 3, { lotNumber: "C2", expiresAt: day(40) });
    await receiveLot(tenant, productId, a, 3, { lotNumber: "C3" });
    const results = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        salesOrder(tenant, [
          { productId, quantity: 1, ...(i % 4 === 0 ? { lotNumber: "C2" } : {}) } as never,
        ]),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    const levels = await checkedStockOf(tenant, productId);
    for (const level of levels) expect(level.reserved).toBe(level.onHand);
  });
});

describe("serial numbers", () => {
  it("are in stock at most once, even when the same serial is received concurrently", async () => {
    const productId = (await createProduct(tenant, { tracking: "serial" })).id;
    const [a, b] = [await newLocation(), await newLocation()];
    const results = await Promise.all(
      [a, b, a, b, a, b].map((locationId) =>
        adjust({ productId, locationId, quantity: 1, serialNumbers: ["SN-1"] }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409))
      expect(r.body.errors).toEqual(["serialNumbers: SN-1 is already in stock"]);
    const levels = await checkedStockOf(tenant, productId);
    expect(levels.reduce((sum, l) => sum + l.onHand, 0)).toBe(1);
  });

  it("move with transfers, leave with removals, and are chosen at shipping", async () => {
    const productId = (await createProduct(tenant, { tracking: "serial" })).id;
    const [a, b] = [await newLocation(), await newLocation()];
    expect(
      (await adjust({ productId, locationId: a, quantity: 3, serialNumbers: ["S1", "S2", "S3"] })).status,
    ).toBe(201);
    const moved = await call("POST", "/inventory/transfers", {
      headers: tenant.admin,
      body: { productId, fromLocationId: a, toLocationId: b, quantity: 1, serialNumbers: ["S3"] },
    });
    expect(moved.status).toBe(201);
    expect(moved.body.data.movements[0]!.serialNumbers).toEqual(["S3"]);
    const notThere = await adjust({ productId, locationId: a, quantity: -1, serialNumbers: ["S3"] });
    expect(notThere.status).toBe(409);
    expect(notThere.body.errors).toEqual([
      expect.stringMatching(/^serialNumbers: S3 is not in stock at location /),
    ]);

    const order = await salesOrder(tenant, [{ productId, quantity: 2 }], { warehouseId });
    expect(order.status).toBe(201);
    const orderId = order.body.data.id;
    const lineId = order.body.data.lines[0]!.id;
    await setStatus(tenant, orderId, { status: "confirmed" });
    await setStatus(tenant, orderId, { status: "picking" });
    const noSerials = await setStatus(tenant, orderId, { status: "shipped" });
    expect(noSerials.status).toBe(400);
    expect(noSerials.body.errors).toEqual([expect.stringMatching(/needs the serial numbers shipped/)]);
    const reservedAt = await (await tenantDatabase(tenant.id))
      .prepare("select location_id as l, quantity as q from order_reservations where order_id = ?")
      .bind(orderId)
      .all<{ l: string; q: number }>();
    const serialsAt = { [a]: ["S1", "S2"], [b]: ["S3"] } as Record<string, string[]>;
    const picked = reservedAt.results.flatMap((r) => (serialsAt[r.l] ?? []).slice(0, r.q));
    const shipped = await setStatus(tenant, orderId, {
      status: "shipped",
      lines: [{ lineId, serialNumbers: picked }],
    });
    expect(shipped.status, JSON.stringify(shipped.body)).toBe(200);
    expect(shipped.body.data.lines[0]!.serialNumbers).toEqual(picked);
    const again = await adjust({ productId, locationId: a, quantity: 1, serialNumbers: [picked[0]] });
    expect(again.status).toBe(201); // a shipped unit can come back (a return)
    await checkedStockOf(tenant, productId);
  });
});

async function lotIdsByNumber(productId: string): Promise<Record<string, string>> {
  const lots = await call("GET", `/lots?productId=${productId}&pageSize=100`, { headers: tenant.admin });
  expect(lots.status).toBe(200);
  return Object.fromEntries(lots.body.data.items.map((lot) => [lot.number, lot.id]));
}

describe("lot trace", () => {
  it("follows a lot from its receipt through a transfer to the orders that shipped and hold it", async () => {
    const productId = await lotTracked();
    const [a, b] = [await newLocation(), await newLocation()];
    await receiveLot(tenant, productId, a, 6, { lotNumber: "R1", expiresAt: day(30) });
    await call("POST", "/inventory/transfers", {
      headers: tenant.admin,
      body: { productId, fromLocationId: a, toLocationId: b, quantity: 6, lotNumber: "R1" },
    });
    const shipped = await salesOrder(tenant, [{ productId, quantity: 2 }]);
    const held = await salesOrder(tenant, [{ productId, quantity: 3 }]);
    const shippedId = shipped.body.data.id;
    for (const status of ["confirmed", "picking", "shipped"]) await setStatus(tenant, shippedId, { status });
    const lotId = (await lotIdsByNumber(productId)).R1;
    const trace = await call("GET", `/lots/${lotId}/trace`, { headers: tenant.admin });
    expect(trace.status).toBe(200);
    expect(trace.body.data.movements.map((m) => [m.reason, m.delta, m.orderNumber])).toEqual([
      ["received", 6, null],
      ["transfer", -6, null],
      ["transfer", 6, null],
      ["shipped", -2, shipped.body.data.number],
    ]);
    expect(trace.body.data.openOrders).toEqual([
      expect.objectContaining({
        orderId: held.body.data.id,
        orderNumber: held.body.data.number,
        reserved: 3,
      }),
    ]);
  });
});

describe("lot access", () => {
  it("needs a credential (401), read:inventory (403), and hides other tenants' lots (404)", async () => {
    const productId = await lotTracked();
    await receiveLot(tenant, productId, await newLocation(), 1, { lotNumber: "X1" });
    const lotId = (await lotIdsByNumber(productId)).X1;
    const paths = ["/lots", `/lots/${lotId}`, `/lots/${lotId}/trace`];
    const ordersOnly = await scopedKey(tenant, ["read:orders"]);
    const other = await createTenant();
    for (const path of paths) {
      expect((await call("GET", path)).status).toBe(401);
      expect((await call("GET", path, { headers: ordersOnly })).status).toBe(403);
      expect((await call("GET", path, { headers: await scopedKey(tenant, ["read:inventory"]) })).status).toBe(
        200,
      );
    }
    expect((await call("GET", `/lots/${lotId}`, { headers: other.admin })).status).toBe(404);
    expect((await call("GET", `/lots/${lotId}/trace`, { headers: other.admin })).status).toBe(404);
    const list = await call("GET", "/lots", { headers: other.admin });
    expect(list.body.data.items).toEqual([]);
  });

  it("filters lots by expiry", async () => {
    const productId = await lotTracked();
    const location = await newLocation();
    await receiveLot(tenant, productId, location, 1, { lotNumber: "E-OLD", expiresAt: day(-3) });
    await receiveLot(tenant, productId, location, 1, { lotNumber: "E-NEW", expiresAt: day(100) });
    await receiveLot(tenant, productId, location, 1, { lotNumber: "E-NONE" });
    const get = async (query: string) =>
      (
        await call("GET", `/lots?productId=${productId}&${query}`, { headers: tenant.admin })
      ).body.data.items.map((l) => l.number);
    expect(await get("expired=true")).toEqual(["E-OLD"]);
    expect(await get("expired=false")).toEqual(["E-NEW", "E-NONE"]);
    expect(await get(`expiringBefore=${day(10)}`)).toEqual(["E-OLD"]);
  });
});

describe("lot invariants under random operations (property)", () => {
  it("after every receipt (adjusted or purchased), removal, transfer, FEFO order, shipment, cancellation or approved count: no level negative or over-reserved, ledger = onHand per (product, location, lot)", async () => {
    const productId = await lotTracked();
    const locations = [await newLocation(), await newLocation()];
    const lotNames = ["PA", "PB", "PC"];
    const lotsAt = [day(5), day(15), undefined];
    const openOrders: string[] = [];
    const step = fc.oneof(
      fc.record({
        kind: fc.constant("adjust" as const),
        at: fc.nat(1),
        lot: fc.nat(2),
        quantity: fc.integer({ min: -5, max: 6 }).filter((q) => q !== 0),
      }),
      fc.record({
        kind: fc.constant("transfer" as const),
        from: fc.nat(1),
        lot: fc.nat(2),
        quantity: fc.integer({ min: 1, max: 5 }),
      }),
      fc.record({
        kind: fc.constant("order" as const),
        quantity: fc.integer({ min: 1, max: 6 }),
        pin: fc.option(fc.nat(2)),
      }),
      fc.record({ kind: fc.constant("cancel" as const) }),
      fc.record({ kind: fc.constant("ship" as const) }),
      fc.record({
        kind: fc.constant("receipt" as const),
        at: fc.nat(1),
        lot: fc.nat(2),
        quantity: fc.integer({ min: 1, max: 6 }),
      }),
      fc.record({
        kind: fc.constant("count" as const),
        at: fc.nat(1),
        differences: fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 3, maxLength: 3 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        for (const s of steps) {
          let status: number;
          if (s.kind === "adjust") {
            const lot = {
              lotNumber: lotNames[s.lot],
              ...(s.quantity > 0 && lotsAt[s.lot] ? { expiresAt: lotsAt[s.lot] } : {}),
            };
            status = (await adjust({ productId, locationId: locations[s.at], quantity: s.quantity, ...lot }))
              .status;
          } else if (s.kind === "transfer") {
            status = (
              await call("POST", "/inventory/transfers", {
                headers: tenant.admin,
                body: {
                  productId,
                  fromLocationId: locations[s.from],
                  toLocationId: locations[1 - s.from],
                  quantity: s.quantity,
                  lotNumber: lotNames[s.lot],
                },
              })
            ).status;
          } else if (s.kind === "receipt") {
            const lot = {
              lotNumber: lotNames[s.lot],
              ...(lotsAt[s.lot] ? { expiresAt: lotsAt[s.lot] } : {}),
            };
            const po = await purchaseOrder(tenant, warehouseId, [{ productId, quantity: s.quantity }]);
            await setStatus(tenant, po.body.data.id, { status: "ordered" });
            const line = {
              lineId: po.body.data.lines[0]?.id,
              quantity: s.quantity,
              locationId: locations[s.at],
            };
            status = (
              await call("POST", `/orders/${po.body.data.id}/receive`, {
                headers: tenant.admin,
                body: { lines: [{ ...line, ...lot }] },
              })
            ).status;
            expect(status).toBe(200);
          } else if (s.kind === "count") {
            // Count one bin, finding each lot's expected quantity plus a random difference, and approve it.
            const started = await call("POST", "/inventory/counts", {
              headers: tenant.admin,
              body: { locationIds: [locations[s.at]], productIds: [productId] },
            });
            const id = started.body.data.id;
            const lines = started.body.data.lines.map((l, i) => ({
              productId,
              locationId: l.locationId,
              lotNumber: l.lotNumber,
              counted: Math.max(0, l.expected + (s.differences[i % 3] ?? 0)),
            }));
            if (lines.length) {
              expect(
                (
                  await call("PUT", `/inventory/counts/${id}/lines`, {
                    headers: tenant.admin,
                    body: { lines },
                  })
                ).status,
              ).toBe(200);
            }
            await call("POST", `/inventory/counts/${id}/submit`, { headers: tenant.admin });
            status = (await call("POST", `/inventory/counts/${id}/approve`, { headers: tenant.admin }))
              .status;
            if (status === 200) {
              // Nothing moved between counting and approving: each counted level holds what was counted.
              const levels = await checkedStockOf(tenant, productId);
              for (const line of lines) {
                const lotId = started.body.data.lines.find((l) => l.lotNumber === line.lotNumber)?.lotId;
                const level = levels.find((l) => l.locationId === line.locationId && l.lotId === lotId);
                expect(level?.onHand).toBe(line.counted);
              }
            } else {
              // A removal the reserved stock cannot give: refused whole; the count is cancelled.
              expect(
                (await call("POST", `/inventory/counts/${id}/cancel`, { headers: tenant.admin })).status,
              ).toBe(200);
            }
          } else if (s.kind === "order") {
            const pin = s.pin === null ? {} : { lotNumber: lotNames[s.pin] };
            const res = await salesOrder(tenant, [{ productId, quantity: s.quantity, ...pin } as never]);
            status = res.status;
            if (status === 201) openOrders.push(res.body.data.id);
          } else {
            const orderId = openOrders.shift();
            if (!orderId) continue;
            if (s.kind === "ship") {
              await setStatus(tenant, orderId, { status: "confirmed" });
              await setStatus(tenant, orderId, { status: "picking" });
            }
            status = (
              await setStatus(tenant, orderId, { status: s.kind === "ship" ? "shipped" : "cancelled" })
            ).status;
            expect(status).toBe(200);
          }
          expect([200, 201, 409]).toContain(status);
          await checkedStockOf(tenant, productId);
        }
      }),
      { numRuns: 12 },
    );
    // Every open reservation is backed by exactly the reserved figure of its level.
    const reserved = await (await tenantDatabase(tenant.id))
      .prepare(
        `select s.lot_id as lot, s.reserved as reserved, coalesce((select sum(r.quantity) from order_reservations r
         where r.tenant_id = s.tenant_id and r.product_id = s.product_id and r.location_id = s.location_id and r.lot_id = s.lot_id), 0) as held
       from stock_levels s where s.tenant_id = ? and s.product_id = ?`,
      )
      .bind(tenant.id, productId)
      .all<{ reserved: number; held: number }>();
    for (const row of reserved.results) expect(row.reserved).toBe(row.held);
  });
});

describe("expiry-aware reports", () => {
  it("low stock and valuation count only unexpired stock as available", async () => {
    const productId = (await createProduct(tenant, { tracking: "lot", reorderPoint: 5, cost: 2 })).id;
    const site = (await createWarehouse(tenant)).id;
    const location = (await createLocation(tenant, site)).id;
    await receiveLot(tenant, productId, location, 4, { lotNumber: "FRESH", expiresAt: day(30) });
    await receiveLot(tenant, productId, location, 6, { lotNumber: "STALE", expiresAt: day(-2) });
    const low = await call("GET", `/reports/low-stock?warehouseId=${site}`, { headers: tenant.admin });
    expect(low.status).toBe(200);
    expect(low.body.data.items).toEqual([
      expect.objectContaining({ productId, onHand: 10, reserved: 0, expired: 6, available: 4, shortfall: 1 }),
    ]);
    const valuation = await call("GET", `/reports/inventory-valuation?warehouseId=${site}`, {
      headers: tenant.admin,
    });
    expect(valuation.body.data.items).toEqual([
      expect.objectContaining({ onHand: 10, expired: 6, value: 20 }),
    ]);
    expect(valuation.body.data.totals).toMatchObject({ onHand: 10, expired: 6, available: 4 });
  });

  it("the low-stock event and the reorder filter count only unexpired stock as available", async () => {
    const productId = (await createProduct(tenant, { tracking: "lot", reorderPoint: 5 })).id;
    const location = await newLocation();
    await receiveLot(tenant, productId, location, 7, { lotNumber: "EV-FRESH", expiresAt: day(30) });
    await receiveLot(tenant, productId, location, 6, { lotNumber: "EV-STALE", expiresAt: day(-2) });
    const lowEvents = async () =>
      (await outboxEvents(tenant, /^inventory\.low_stock$/)).filter((e) => e.payload.productId === productId);
    const belowReorder = async () =>
      levelsIn(
        (
          await call("GET", `/inventory/stock?productId=${productId}&belowReorderPoint=true`, {
            headers: tenant.admin,
          })
        ).body.data,
      );
    expect(await belowReorder()).toEqual([]);
    // 13 on hand, but only the fresh lot's 7 are available: an order of 3 leaves 4, at or below 5.
    expect((await salesOrder(tenant, [{ productId, quantity: 3 }])).status).toBe(201);
    const [event] = await lowEvents();
    expect(event?.payload).toMatchObject({
      onHand: 13,
      reserved: 3,
      expired: 6,
      available: 4,
      reorderPoint: 5,
    });
    expect((await belowReorder()).map((l) => l.lotNumber).sort()).toEqual(["EV-FRESH", "EV-STALE"]);
    // Throwing away expired units takes nothing available: no second event (it was low already).
    await adjust({ productId, locationId: location, quantity: -2, lotNumber: "EV-STALE", reason: "expired" });
    expect(await lowEvents()).toHaveLength(1);
  });
});
