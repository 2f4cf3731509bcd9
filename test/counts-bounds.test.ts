import { beforeAll, describe, expect, it } from "vitest";
import {
  createTenant,
  type SeededLocation,
  seedLevel,
  seedLocation,
  seedProduct,
  seedSerialStockedProducts,
  seedStockedProducts,
  seedWarehouse,
  type TestTenant,
} from "./support/builders";
import { levelsWithLedger, outboxEvents, tenantDatabase } from "./support/database";
import { call } from "./support/http";

// A count's bounds (docs/decisions/cycle-counts.md): 2,000 lines, 5,000 serials. The largest count they allow
// must be approvable, with an event D1 can store (1 MB a row); a larger one is refused before anything is stored.
const MAX_LINES = 2000;
const MAX_SERIALS = 5000;
const SERIAL_PRODUCTS = 5;
const UNTRACKED = MAX_LINES - SERIAL_PRODUCTS;
const PER_PRODUCT = MAX_SERIALS / SERIAL_PRODUCTS;
// Serial numbers as long as the API takes them (100 characters): the largest payload a line can carry.
const serial = (prefix: string, product: number, unit: number) =>
  `${prefix}-${product}-${unit}-`.padEnd(100, "x");

/** Rows of the tenant's counts and their lines: what a refused request must leave as it was. */
async function storedCounts(tenant: TestTenant) {
  return (await tenantDatabase(tenant.id))
    .prepare(
      `select (select count(*) from inventory_counts where tenant_id = ?1) as counts,
         (select count(*) from inventory_count_lines where tenant_id = ?1) as lines,
         (select coalesce(sum(counted), 0) from inventory_count_lines where tenant_id = ?1) as counted,
         (select max(updated_at) from inventory_counts where tenant_id = ?1) as updatedAt`,
    )
    .bind(tenant.id)
    .first();
}

describe("the largest count the API allows", () => {
  let big: TestTenant;
  let bin: SeededLocation;
  let untracked: string[];
  let serialTracked: string[];
  let countId: string;

  beforeAll(async () => {
    // Its own tenant: the seeded SKUs must not meet other tests' products.
    big = await createTenant();
    bin = await seedLocation(big, await seedWarehouse(big));
    untracked = await seedStockedProducts(big, bin, UNTRACKED, () => 10);
    serialTracked = await seedSerialStockedProducts(big, bin, SERIAL_PRODUCTS, (p) =>
      Array.from({ length: PER_PRODUCT }, (_, u) => serial("OLD", p, u)),
    );
  });

  it("refuses a scope one line or one serial past the bounds with a 400 naming how to narrow it; nothing is stored", async () => {
    const extra = await seedLocation(big, bin.warehouseId);
    const oneMore = await seedProduct(big);
    await seedLevel(big, oneMore, extra, 1);
    const before = await storedCounts(big);
    const tooMany = await call("POST", "/inventory/counts", {
      headers: big.admin,
      body: { warehouseId: bin.warehouseId },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/narrow it with productIds or fewer locationIds/);
    expect(tooMany.body.errors).toEqual([
      `this scope has ${MAX_LINES + 1} levels with stock; a count holds at most ${MAX_LINES} lines`,
    ]);
    expect(await storedCounts(big)).toEqual(before);
    // Narrowed as the message says, it is a count.
    const narrowed = await call("POST", "/inventory/counts", {
      headers: big.admin,
      body: { locationIds: [extra.id], productIds: [oneMore] },
    });
    expect(narrowed.status).toBe(201);
    expect(narrowed.body.data.lines).toHaveLength(1);
    await call("POST", `/inventory/counts/${narrowed.body.data.id}/cancel`, { headers: big.admin });

    // One serial more than a count lists (a unit received at the bin) is refused the same way.
    const db = await tenantDatabase(big.id);
    const product = serialTracked[0] as string;
    await db.batch([
      db
        .prepare(
          "update stock_levels set on_hand = on_hand + 1 where tenant_id = ? and product_id = ? and location_id = ?",
        )
        .bind(big.id, product, bin.id),
      db
        .prepare(
          `insert into serial_numbers (tenant_id, product_id, serial, location_id, warehouse_id, on_hand, created_at, updated_at)
           values (?, ?, 'ONE-MORE', ?, ?, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
        )
        .bind(big.id, product, bin.id, bin.warehouseId),
    ]);
    const serialsBefore = await storedCounts(big);
    const tooManySerials = await call("POST", "/inventory/counts", {
      headers: big.admin,
      body: { locationIds: [bin.id] },
    });
    expect(tooManySerials.status).toBe(400);
    expect(tooManySerials.body.errors).toEqual([
      `this scope has ${MAX_SERIALS + 1} serial numbers on hand; a count lists at most ${MAX_SERIALS}`,
    ]);
    expect(await storedCounts(big)).toEqual(serialsBefore);
    await db.batch([
      db
        .prepare(
          "update stock_levels set on_hand = on_hand - 1 where tenant_id = ? and product_id = ? and location_id = ?",
        )
        .bind(big.id, product, bin.id),
      db.prepare("delete from serial_numbers where tenant_id = ? and serial = 'ONE-MORE'").bind(big.id),
    ]);
  });

  it("takes the whole bin (2,000 lines, 5,000 serials) and refuses lines past the bounds, changing nothing", async () => {
    const started = await call("POST", "/inventory/counts", {
      headers: big.admin,
      body: { locationIds: [bin.id] },
    });
    expect(started.status, JSON.stringify(started.body).slice(0, 300)).toBe(201);
    expect(started.body.data.lines).toHaveLength(MAX_LINES);
    countId = started.body.data.id;

    // Every untracked line counted one short; every serial line found 1,000 new serials and none of its own.
    const lines = untracked.map((productId) => ({ productId, locationId: bin.id, counted: 9 }));
    for (let i = 0; i < lines.length; i += 500) {
      const recorded = await call("PUT", `/inventory/counts/${countId}/lines`, {
        headers: big.admin,
        body: { lines: lines.slice(i, i + 500) },
      });
      expect(recorded.status).toBe(200);
    }
    const serialLines = serialTracked.map((productId, p) => ({
      productId,
      locationId: bin.id,
      counted: PER_PRODUCT,
      serialNumbers: Array.from({ length: PER_PRODUCT }, (_, u) => serial("NEW", p, u)),
    }));
    const recorded = await call("PUT", `/inventory/counts/${countId}/lines`, {
      headers: big.admin,
      body: { lines: serialLines },
    });
    expect(recorded.status, JSON.stringify(recorded.body).slice(0, 300)).toBe(200);
    // Recording a line again replaces its serials: still 5,000 counted, so it is accepted.
    const again = await call("PUT", `/inventory/counts/${countId}/lines`, {
      headers: big.admin,
      body: { lines: [serialLines[0]] },
    });
    expect(again.status).toBe(200);

    const before = await storedCounts(big);
    // A line found outside the snapshot would be the 2,001st.
    const foundHere = await seedProduct(big);
    const lineTooMany = await call("PUT", `/inventory/counts/${countId}/lines`, {
      headers: big.admin,
      body: { lines: [{ productId: foundHere, locationId: bin.id, counted: 1 }] },
    });
    expect(lineTooMany.status).toBe(400);
    expect(lineTooMany.body.errors).toEqual([
      `lines: a count holds at most ${MAX_LINES} lines and ${MAX_SERIALS} counted serial numbers; these lines would take it past that (count the rest in another count)`,
    ]);
    expect(await storedCounts(big)).toEqual(before);
  });

  it("approves it in one batch, and its event is stored, bounded and readable in GET /events", async () => {
    expect((await call("POST", `/inventory/counts/${countId}/submit`, { headers: big.admin })).status).toBe(
      200,
    );
    const approved = await call("POST", `/inventory/counts/${countId}/approve`, { headers: big.admin });
    expect(approved.status, JSON.stringify(approved.body).slice(0, 500)).toBe(200);
    expect(approved.body.data.totals).toEqual({
      lines: MAX_LINES,
      counted: MAX_LINES,
      withVariance: MAX_LINES,
      variance: -UNTRACKED,
    });
    // The answer is the whole count.
    expect(approved.body.data.lines).toHaveLength(MAX_LINES);

    const levels = (await levelsWithLedger(big)).filter((level) => level.locationId === bin.id);
    expect(levels).toHaveLength(MAX_LINES);
    for (const level of levels) expect(level.ledger).toBe(level.onHand);
    const serials = await (await tenantDatabase(big.id))
      .prepare(
        `select sum(serial like 'NEW-%' and on_hand = 1) as found, sum(serial like 'OLD-%' and on_hand = 1) as left
         from serial_numbers where tenant_id = ?`,
      )
      .bind(big.id)
      .first();
    expect(serials).toEqual({ found: MAX_SERIALS, left: 0 });

    const [event] = (await outboxEvents(big, /^inventory\.count_approved$/)).filter(
      (e) => e.payload.id === countId,
    );
    if (!event) throw new Error("no inventory.count_approved event");
    // Every line changed stock and they do not all fit: the event carries the first ones and says so.
    expect(event.payload).toMatchObject({
      id: countId,
      status: "approved",
      totals: approved.body.data.totals,
      linesIncluded: "changed",
      hasMoreLines: true,
    });
    const eventLines = event.payload.lines as { productId: string; variance: number }[];
    expect(eventLines.length).toBeGreaterThan(0);
    expect(eventLines.length).toBeLessThan(MAX_LINES);
    expect(eventLines).toEqual(approved.body.data.lines.slice(0, eventLines.length));
    expect(new TextEncoder().encode(JSON.stringify(event.payload)).byteLength).toBeLessThan(300 * 1024);

    const feed = await call("GET", "/events?type=inventory.count_approved&limit=500", { headers: big.admin });
    expect(feed.status).toBe(200);
    const item = feed.body.data.items.find((e) => e.id === event.id);
    expect(item?.data).toEqual(event.payload);
  });
});

describe("a count's serials", () => {
  it("refuses the 5,001st counted serial with a 400 that changes nothing; counting a line again replaces its serials", async () => {
    const tenant = await createTenant();
    const bin = await seedLocation(tenant, await seedWarehouse(tenant));
    const products: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await call("POST", "/products", {
        headers: tenant.admin,
        body: { sku: `SER-${i}`, name: "Serial", tracking: "serial" },
      });
      products.push(res.body.data.id);
    }
    const started = await call("POST", "/inventory/counts", {
      headers: tenant.admin,
      body: { locationIds: [bin.id] },
    });
    expect(started.status).toBe(201);
    const id = started.body.data.id;
    const line = (p: number, units: number) => ({
      productId: products[p],
      locationId: bin.id,
      counted: units,
      serialNumbers: Array.from({ length: units }, (_, u) => serial("FOUND", p, u)),
    });
    const full = await call("PUT", `/inventory/counts/${id}/lines`, {
      headers: tenant.admin,
      body: { lines: [0, 1, 2, 3, 4].map((p) => line(p, PER_PRODUCT)) },
    });
    expect(full.status, JSON.stringify(full.body).slice(0, 300)).toBe(200);
    const again = await call("PUT", `/inventory/counts/${id}/lines`, {
      headers: tenant.admin,
      body: { lines: [line(0, PER_PRODUCT)] },
    });
    expect(again.status).toBe(200);
    const before = await storedCounts(tenant);
    const oneMore = await call("PUT", `/inventory/counts/${id}/lines`, {
      headers: tenant.admin,
      body: { lines: [line(5, 1)] },
    });
    expect(oneMore.status).toBe(400);
    expect(oneMore.body.errors).toEqual([
      `lines: a count holds at most ${MAX_LINES} lines and ${MAX_SERIALS} counted serial numbers; these lines would take it past that (count the rest in another count)`,
    ]);
    expect(await storedCounts(tenant)).toEqual(before);
    // Fewer serials on a counted line make room for it.
    const fewer = await call("PUT", `/inventory/counts/${id}/lines`, {
      headers: tenant.admin,
      body: { lines: [line(0, PER_PRODUCT - 1), line(5, 1)] },
    });
    expect(fewer.status).toBe(200);
    expect(fewer.body.data.lines).toHaveLength(6);
  });
});

describe("the event of a count that fits", () => {
  it("carries every line, unchanged ones included", async () => {
    const small = await createTenant();
    const bin = await seedLocation(small, await seedWarehouse(small));
    const [changed = "", unchanged = ""] = await seedStockedProducts(small, bin, 2, () => 4);
    const started = await call("POST", "/inventory/counts", {
      headers: small.admin,
      body: { locationIds: [bin.id] },
    });
    const id = started.body.data.id;
    await call("PUT", `/inventory/counts/${id}/lines`, {
      headers: small.admin,
      body: {
        lines: [
          { productId: changed, locationId: bin.id, counted: 5 },
          { productId: unchanged, locationId: bin.id, counted: 4 },
        ],
      },
    });
    await call("POST", `/inventory/counts/${id}/submit`, { headers: small.admin });
    const approved = await call("POST", `/inventory/counts/${id}/approve`, { headers: small.admin });
    expect(approved.status).toBe(200);
    const [event] = await outboxEvents(small, /^inventory\.count_approved$/);
    expect(event?.payload).toEqual({ ...approved.body.data, linesIncluded: "all", hasMoreLines: false });
  });
});
