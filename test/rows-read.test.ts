import { beforeAll, describe, expect, it } from "vitest";
import {
  createTenant,
  salesOrder,
  seedLocation,
  seedManyMovements,
  seedStockedProducts,
  seedWarehouse,
  type TestTenant,
} from "./support/builders";
import { tenantDatabase } from "./support/database";
import { call } from "./support/http";

// D1 bills the rows a statement reads, and a statement that walks the tenant's history gets slower as the
// history grows: a write that names its rows by id must read those rows, not every row of the tenant. Each test
// makes the same write in a tenant with a small history and in one with a long one, and compares the
// `rows-read` of X-D1-Stats. (A key lookup among a tenant's rows once scanned all of them: SQLite took the
// tenant column for the narrower index.)

const HISTORY = 4000;
const PRODUCTS = 200;

const rowsReadOf = (response: { headers: Headers }) =>
  Number(/rows-read=(\d+)/.exec(response.headers.get("X-D1-Stats") ?? "")?.[1]);

/** A tenant with PRODUCTS stocked products at one bin and, when `long`, HISTORY more ledger rows, events and products. */
async function stockedTenant(long: boolean) {
  const tenant = await createTenant();
  const warehouseId = await seedWarehouse(tenant);
  const location = await seedLocation(tenant, warehouseId);
  const productIds = await seedStockedProducts(tenant, location, PRODUCTS, () => 50);
  if (long) {
    await seedManyMovements(tenant, productIds[0] as string, location, HISTORY);
    await seedEvents(tenant, HISTORY);
    await seedProducts(tenant, HISTORY);
  }
  return { tenant, location, productIds };
}

/** `count` fanned-out events in the tenant's outbox, in one statement. */
async function seedEvents(tenant: TestTenant, count: number) {
  await (await tenantDatabase(tenant.id))
    .prepare(
      `with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ?)
       insert into outbox_events (id, tenant_id, type, payload, created_at, dispatched_at, processed_at, seq)
       select printf('00000000-0000-7000-9000-%012d', i), ?, 'inventory.adjusted', '{}', ?, ?, ?,
         (select coalesce(max(seq), 0) from outbox_events where tenant_id = ?) + i + 1
       from n`,
    )
    .bind(
      count,
      tenant.id,
      "2026-11-01T00:00:00.000Z",
      "2026-11-01T00:00:00.000Z",
      "2026-11-01T00:00:00.000Z",
      tenant.id,
    )
    .run();
}

/** `count` more products (SKUs X-0..), unstocked, in one statement. */
async function seedProducts(tenant: TestTenant, count: number) {
  await (await tenantDatabase(tenant.id))
    .prepare(
      `with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ?)
       insert into products (id, tenant_id, sku, name, created_at, updated_at)
       select printf('00000000-0000-7000-a000-%012d', i), ?, 'X-' || i, 'More', ?, ? from n`,
    )
    .bind(count, tenant.id, "2026-11-01T00:00:00.000Z", "2026-11-01T00:00:00.000Z")
    .run();
}

type Stocked = Awaited<ReturnType<typeof stockedTenant>>;

async function adjustment({ tenant, location, productIds }: Stocked) {
  const response = await call("POST", "/inventory/adjustments", {
    headers: tenant.admin,
    body: { productId: productIds[1], locationId: location.id, quantity: -1, reason: "damaged" },
  });
  expect(response.status).toBe(201);
  return rowsReadOf(response);
}

async function batch({ tenant, location, productIds }: Stocked) {
  const response = await call("POST", "/inventory/adjustments/batch", {
    headers: tenant.admin,
    body: {
      lines: productIds.slice(1, 101).map((productId) => ({
        productId,
        locationId: location.id,
        quantity: -1,
        reason: "damaged",
      })),
    },
  });
  expect(response.status).toBe(200);
  return rowsReadOf(response);
}

async function order({ tenant, productIds }: Stocked) {
  const response = await salesOrder(
    tenant,
    productIds.slice(101, 104).map((productId) => ({ productId, quantity: 2 })),
  );
  expect(response.status).toBe(201);
  return rowsReadOf(response);
}

describe("what a stock write reads does not grow with the tenant's history", () => {
  // The seeded history's ids are fixed: one tenant of each kind for the file.
  let tenants: { short: Stocked; long: Stocked };
  beforeAll(async () => {
    tenants = { short: await stockedTenant(false), long: await stockedTenant(true) };
  });

  it("a single adjustment reads the same rows after 4,000 more ledger rows, events and products as before", async () => {
    const short = await adjustment(tenants.short);
    const long = await adjustment(tenants.long);
    console.log("single", short, long);
    expect(short).toBeGreaterThan(0);
    expect(long).toBeLessThanOrEqual(short + 10);
  });

  it("a 100-line batch reads the same rows after 4,000 more ledger rows, events and products as before", async () => {
    const short = await batch(tenants.short);
    const long = await batch(tenants.long);
    console.log("batch", short, long);
    expect(short).toBeGreaterThan(0);
    expect(long).toBeLessThanOrEqual(short + 10);
  });

  it("a 3-line sales order reads the same rows after 4,000 more ledger rows, events and products as before", async () => {
    const short = await order(tenants.short);
    const long = await order(tenants.long);
    expect(short).toBeGreaterThan(0);
    expect(long).toBeLessThanOrEqual(short + 10);
  });
});
