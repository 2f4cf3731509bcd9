import { env } from "cloudflare:workers";
import type { DataAt } from "./api-types";
import { tenantDatabase } from "./database";
import { bearer, call } from "./http";
import { mailTo, tokenIn } from "./mail";

// Test data, built through the API as an integrator would (so events, validation and idempotency run),
// except the `seed*` helpers at the end: event-free rows written under the API for suites that need bulk
// data or history the API cannot backdate (reports, streaming).

let counter = 0;
/** A string no other call returns in this run (test files run in parallel isolates, hence time and randomness). */
export const unique = () =>
  `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

// ---- tenants and credentials ----

export const PLATFORM = { authorization: `Bearer ${env.PLATFORM_ADMIN_TOKEN}` };

export interface TestTenant {
  id: string;
  plan: string;
  /** The first admin API key, with the headers to send it. */
  adminKey: string;
  admin: Record<string, string>;
  owner: { id: string; email: string; password: string };
}

/** Who acts: a tenant (its admin key is used) or the request headers of any credential. */
export type Creator = TestTenant | Record<string, string>;

// A TestTenant's `admin` is a headers object; a header value is always a string.
const headersOf = (who: Creator): Record<string, string> =>
  typeof who.admin === "object" ? (who as TestTenant).admin : (who as Record<string, string>);

/** POSTs and returns `data`; throws (failing the set-up, not the assertion) unless the status is `expected`. */
async function created<P extends string>(
  path: P,
  headers: Record<string, string>,
  body: unknown,
  expected = 201,
): Promise<DataAt<"POST", P>> {
  const res = await call("POST", path, { headers, body });
  if (res.status !== expected)
    throw new Error(`POST ${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Creates a tenant through the platform endpoint, as an operator would, and returns its credentials. */
export async function createTenant(
  options: { plan?: "starter" | "business" | "enterprise"; name?: string; shard?: string } = {},
): Promise<TestTenant> {
  const email = `owner-${unique()}@example.com`;
  const password = "owner-password-1";
  const { tenant, owner, apiKey } = await created("/platform/tenants", PLATFORM, {
    name: options.name ?? `Tenant ${unique()}`,
    plan: options.plan ?? "enterprise",
    owner: { email, password, name: "Owner" },
    ...(options.shard ? { shard: options.shard } : {}),
  });
  // A new email gets its account and a first key; only an existing account is invited instead.
  if (!owner || !apiKey) throw new Error(`createTenant: ${email} was invited, not created`);
  return {
    id: tenant.id,
    plan: tenant.plan,
    adminKey: apiKey.key,
    admin: bearer(apiKey.key),
    owner: { id: owner.id, email, password },
  };
}

/** Headers for a new API key of `tenant` holding exactly `scopes` (created through POST /api-keys). */
export async function scopedKey(
  tenant: TestTenant,
  scopes: string[],
  options: { allowedIps?: string[]; expiresAt?: string } = {},
): Promise<Record<string, string>> {
  const { key } = await created("/api-keys", tenant.admin, {
    name: `key ${scopes.join(" ")}`,
    scopes,
    ...options,
  });
  return { "x-api-key": key };
}

/** Logs in and returns headers (Bearer JWT + X-Tenant-Id) for `tenant`. */
export async function loginHeaders(tenant: TestTenant, email: string, password: string) {
  const { token } = await created("/auth/login", {}, { email, password }, 200);
  return { authorization: `Bearer ${token}`, "x-tenant-id": tenant.id };
}

type Identity = DataAt<"GET", "/auth/me">;

/** Whom GET /auth/me says the credential is; throws (failing the set-up) unless it is a `type` credential. */
export async function whoAmI<K extends Identity["type"]>(
  headers: Record<string, string>,
  type: K,
): Promise<Extract<Identity, { type: K }>> {
  const res = await call("GET", "/auth/me", { headers });
  if (res.status !== 200 || res.body.data.type !== type)
    throw new Error(`GET /auth/me is not a ${type}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as Extract<Identity, { type: K }>;
}

/**
 * A new member of `tenant` with `role`, as a person joins: invited through POST /users, the mailed token
 * accepted with their own password. Returns who they are and headers (their JWT + X-Tenant-Id).
 */
export async function newMember(tenant: TestTenant, role: string) {
  const email = `${role}-${unique()}@example.com`;
  const password = "member-password-1";
  await created("/users", tenant.admin, { email, role }, 202);
  const token = tokenIn(await mailTo(email));
  const session = await created("/auth/invitations/accept", {}, { token, password, name: `A ${role}` }, 200);
  if (!("user" in session))
    throw new Error(`accept joined instead of signing in: ${JSON.stringify(session)}`);
  const headers = { authorization: `Bearer ${session.token}`, "x-tenant-id": tenant.id };
  return { id: session.user.id, email, password, headers };
}

/** Headers for a new member of `tenant` with `role` (invited, accepted, signed in). */
export async function userWithRole(tenant: TestTenant, role: string): Promise<Record<string, string>> {
  return (await newMember(tenant, role)).headers;
}

// ---- catalog and stock, through the API ----

/** Creates a product through POST /products (unique sku, name "Widget", price 9.99); `overrides` replace the defaults. */
export function createProduct(who: Creator, overrides: Record<string, unknown> = {}) {
  return created("/products", headersOf(who), {
    sku: `SKU-${unique().toUpperCase()}`,
    name: "Widget",
    price: 9.99,
    ...overrides,
  });
}

/** Creates a warehouse through POST /warehouses (unique code); `overrides` replace the defaults. */
export function createWarehouse(who: Creator, overrides: Record<string, unknown> = {}) {
  return created("/warehouses", headersOf(who), {
    code: `WH-${unique().toUpperCase()}`,
    name: "Main warehouse",
    ...overrides,
  });
}

/** Creates a merchant through POST /merchants (unique code, named by it) and returns its id. */
export async function createMerchant(who: Creator): Promise<string> {
  const code = `M-${unique()}`;
  return (await created("/merchants", headersOf(who), { code, name: code })).id;
}

/** Creates a bin in `warehouseId` through POST /locations (unique code); `overrides` replace the defaults. */
export function createLocation(who: Creator, warehouseId: string, overrides: Record<string, unknown> = {}) {
  return created("/locations", headersOf(who), {
    warehouseId,
    code: `BIN-${unique().toUpperCase()}`,
    name: "Bin",
    type: "bin",
    ...overrides,
  });
}

/** Adjusts stock through POST /inventory/adjustments with the tenant's admin key; throws unless 201. */
export function adjustStock(
  tenant: TestTenant,
  productId: string,
  locationId: string,
  quantity: number,
  reason = "test",
) {
  return created("/inventory/adjustments", tenant.admin, { productId, locationId, quantity, reason });
}

/** The lot fields of a receipt (dates as YYYY-MM-DD). */
export interface LotFields {
  lotNumber?: string;
  expiresAt?: string;
  manufacturedAt?: string;
}

/** Receives `quantity` of a lot-tracked product into `locationId` (reason "received"); throws unless 201. */
export function receiveLot(
  tenant: TestTenant,
  productId: string,
  locationId: string,
  quantity: number,
  lot: LotFields,
) {
  return created("/inventory/adjustments", tenant.admin, {
    productId,
    locationId,
    quantity,
    reason: "received",
    ...lot,
  });
}

/** The date `offset` days from today (UTC), as YYYY-MM-DD: lot expiry and manufacture dates. */
export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * A new lot-tracked product in two new bins `a` and `b` of `warehouseId`, 5 units in each of four lots received in
 * this order: LATE (a, expires in 60 days), SOON (b, in 10 days), GONE (a, expired today), NEVER (b, no expiry).
 * First-expiring-first-out takes SOON, then LATE, then NEVER, never GONE.
 */
export async function fourLots(tenant: TestTenant, warehouseId: string) {
  const productId = (await createProduct(tenant, { tracking: "lot" })).id;
  const [a = "", b = ""] = await newBins(tenant, warehouseId, 2);
  await receiveLot(tenant, productId, a, 5, { lotNumber: "LATE", expiresAt: day(60) });
  await receiveLot(tenant, productId, b, 5, { lotNumber: "SOON", expiresAt: day(10) });
  await receiveLot(tenant, productId, a, 5, { lotNumber: "GONE", expiresAt: day(0) });
  await receiveLot(tenant, productId, b, 5, { lotNumber: "NEVER" });
  return { productId, a, b };
}

/** A new tenant and one warehouse of it: the start the stock suites share (their tests add bins as they need). */
export async function tenantWithWarehouse(): Promise<{ tenant: TestTenant; warehouseId: string }> {
  const tenant = await createTenant();
  return { tenant, warehouseId: (await createWarehouse(tenant)).id };
}

/** `count` new bins in `warehouseId`, created one after another; their ids in that order. */
export async function newBins(tenant: TestTenant, warehouseId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await createLocation(tenant, warehouseId)).id);
  return ids;
}

/** Where a stocked product lives. */
export interface StockedBin {
  warehouseId: string;
  locationId: string;
  productId: string;
}

/**
 * A new product in a new bin holding `quantity` of it (through POST /inventory/adjustments; none when 0).
 * The bin is in `options.warehouseId`, or in a new warehouse; `options.product` overrides the product's fields.
 */
export async function stockedProduct(
  tenant: TestTenant,
  quantity: number,
  options: { warehouseId?: string; product?: Record<string, unknown> } = {},
): Promise<StockedBin> {
  const warehouseId = options.warehouseId ?? (await createWarehouse(tenant)).id;
  const locationId = (await createLocation(tenant, warehouseId)).id;
  const productId = (await createProduct(tenant, options.product)).id;
  if (quantity > 0) await adjustStock(tenant, productId, locationId, quantity);
  return { warehouseId, locationId, productId };
}

// ---- orders ----

export const address = { street: "1 Main St", city: "Springfield", zip: "12345" };

/** POST /orders/sales with `lines` (price 1 unless given) and a new customer; the response is returned as is. */
export function salesOrder(
  tenant: TestTenant,
  lines: { productId: string; quantity: number; price?: number; holdId?: string; lotNumber?: string }[],
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = tenant.admin,
) {
  return call("POST", "/orders/sales", {
    headers,
    body: {
      customerId: crypto.randomUUID(),
      lines: lines.map((line) => ({ price: 1, ...line })),
      shippingAddress: address,
      ...extra,
    },
  });
}

/** POST /orders/purchase into `warehouseId` with `lines` (cost 1 unless given) from supplier "Acme"; the response is returned as is. */
export function purchaseOrder(
  tenant: TestTenant,
  warehouseId: string,
  lines: { productId: string; quantity: number; cost?: number }[],
  extra: Record<string, unknown> = {},
) {
  return call("POST", "/orders/purchase", {
    headers: tenant.admin,
    body: { supplier: "Acme", warehouseId, lines: lines.map((line) => ({ cost: 1, ...line })), ...extra },
  });
}

/** PATCH /orders/{id}/status; the response is returned as is. */
export function setStatus(tenant: TestTenant, orderId: string, body: Record<string, unknown>) {
  return call("PATCH", `/orders/${orderId}/status`, { headers: tenant.admin, body });
}

// ---- event-free seeds, written under the API ----

/** Where seeded stock lives. */
export interface SeededLocation {
  id: string;
  warehouseId: string;
}

/** A product row; costs are in ten-thousandths, exactly as the catalog stores them. */
export interface ProductSeed {
  sku?: string;
  name?: string;
  category?: string;
  costE4?: number | null;
  reorderPoint?: number;
  status?: "Active" | "Inactive";
}

const now = () => new Date().toISOString();

export async function seedWarehouse(
  tenant: TestTenant,
  code = `WH-${unique().toUpperCase()}`,
): Promise<string> {
  const id = crypto.randomUUID();
  await (await tenantDatabase(tenant.id))
    .prepare(
      "insert into warehouses (id, tenant_id, code, name, created_at, updated_at) values (?, ?, ?, ?, ?, ?)",
    )
    .bind(id, tenant.id, code, `Warehouse ${code}`, now(), now())
    .run();
  return id;
}

export async function seedLocation(
  tenant: TestTenant,
  warehouseId: string,
  code = `BIN-${unique().toUpperCase()}`,
): Promise<SeededLocation> {
  const id = crypto.randomUUID();
  await (await tenantDatabase(tenant.id))
    .prepare(
      `insert into locations (id, tenant_id, warehouse_id, code, name, type, created_at, updated_at)
       values (?, ?, ?, ?, ?, 'bin', ?, ?)`,
    )
    .bind(id, tenant.id, warehouseId, code, `Bin ${code}`, now(), now())
    .run();
  return { id, warehouseId };
}

export async function seedProduct(tenant: TestTenant, product: ProductSeed = {}): Promise<string> {
  const id = crypto.randomUUID();
  await (await tenantDatabase(tenant.id))
    .prepare(
      `insert into products (id, tenant_id, sku, name, category, cost_e4, reorder_point, status, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      id,
      tenant.id,
      product.sku ?? `SKU-${unique().toUpperCase()}`,
      product.name ?? "Widget",
      product.category ?? null,
      product.costE4 ?? null,
      product.reorderPoint ?? 0,
      product.status ?? "Active",
      now(),
      now(),
    )
    .run();
  return id;
}

export async function seedLevel(
  tenant: TestTenant,
  productId: string,
  location: SeededLocation,
  onHand: number,
  reserved = 0,
) {
  await (await tenantDatabase(tenant.id))
    .prepare(
      `insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, on_hand, reserved, updated_at)
       values (?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(tenant.id, productId, location.id, location.warehouseId, onHand, reserved, now())
    .run();
}

export interface MovementSeed {
  productId: string;
  location: SeededLocation;
  delta: number;
  reason: string;
  createdAt: string;
  notes?: string;
}

/** One ledger row at `createdAt` (the API can only write the present). */
export async function seedMovement(tenant: TestTenant, movement: MovementSeed) {
  const id = crypto.randomUUID();
  await (await tenantDatabase(tenant.id))
    .prepare(
      `insert into stock_movements (id, tenant_id, product_id, location_id, warehouse_id, delta, on_hand_after,
         reason, notes, actor_type, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'system', ?)`,
    )
    .bind(
      id,
      tenant.id,
      movement.productId,
      movement.location.id,
      movement.location.warehouseId,
      movement.delta,
      Math.max(movement.delta, 0),
      movement.reason,
      movement.notes ?? null,
      movement.createdAt,
    )
    .run();
  return id;
}

/**
 * `count` ledger rows one second apart from 2026-11-01T00:00:00Z, deltas cycling 1..7, in one statement
 * (a recursive CTE, so no parameter limit applies). Ids sort in time order.
 */
export async function seedManyMovements(
  tenant: TestTenant,
  productId: string,
  location: SeededLocation,
  count: number,
) {
  await (await tenantDatabase(tenant.id))
    .prepare(
      `with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ?)
       insert into stock_movements (id, tenant_id, product_id, location_id, warehouse_id, delta, on_hand_after,
         reason, actor_type, created_at)
       select printf('00000000-0000-7000-8000-%012d', i), ?, ?, ?, ?, (i % 7) + 1, i + 1, 'received', 'system',
         strftime('%Y-%m-%dT%H:%M:%fZ', '2026-11-01T00:00:00Z', '+' || i || ' seconds')
       from n`,
    )
    .bind(count, tenant.id, productId, location.id, location.warehouseId)
    .run();
}

/**
 * `count` products P-0000.. (cost 1, reorder point 5), each holding `onHand(i)` units at `location` with the
 * matching "received" ledger row, so ledger sums hold. One statement per table: the rows travel as one JSON
 * parameter, so no parameter limit applies. Returns the product ids in SKU order.
 */
export async function seedStockedProducts(
  tenant: TestTenant,
  location: SeededLocation,
  count: number,
  onHand: (i: number) => number,
): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: crypto.randomUUID(),
    sku: `P-${String(i).padStart(4, "0")}`,
    onHand: onHand(i),
    movementId: crypto.randomUUID(),
  }));
  const json = JSON.stringify(rows);
  const at = now();
  const db = await tenantDatabase(tenant.id);
  await db.batch([
    db
      .prepare(
        `insert into products (id, tenant_id, sku, name, cost_e4, reorder_point, created_at, updated_at)
         select value ->> 'id', ?, value ->> 'sku', 'Bulk', 10000, 5, ?, ? from json_each(?)`,
      )
      .bind(tenant.id, at, at, json),
    db
      .prepare(
        `insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, on_hand, reserved, updated_at)
         select ?, value ->> 'id', ?, ?, value ->> 'onHand', 0, ? from json_each(?)`,
      )
      .bind(tenant.id, location.id, location.warehouseId, at, json),
    db
      .prepare(
        `insert into stock_movements (id, tenant_id, product_id, location_id, warehouse_id, delta, on_hand_after,
           reason, actor_type, created_at)
         select value ->> 'movementId', ?, value ->> 'id', ?, ?, value ->> 'onHand', value ->> 'onHand',
           'received', 'system', ? from json_each(?)`,
      )
      .bind(tenant.id, location.id, location.warehouseId, at, json),
  ]);
  return rows.map((row) => row.id);
}

/**
 * `count` serial-tracked products stocked at `location` with the serials `serialsOf(i)` each (SKUs `S-0000`..),
 * each with its one receipt on the ledger listing them: what a count of serial stock starts from.
 */
export async function seedSerialStockedProducts(
  tenant: TestTenant,
  location: SeededLocation,
  count: number,
  serialsOf: (i: number) => string[],
): Promise<string[]> {
  const at = now();
  const db = await tenantDatabase(tenant.id);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = crypto.randomUUID();
    const serials = serialsOf(i);
    ids.push(id);
    await db.batch([
      db
        .prepare(
          `insert into products (id, tenant_id, sku, name, cost_e4, reorder_point, tracking, created_at, updated_at)
           values (?, ?, ?, 'Serial', 10000, 0, 'serial', ?, ?)`,
        )
        .bind(id, tenant.id, `S-${String(i).padStart(4, "0")}`, at, at),
      db
        .prepare(
          `insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, on_hand, reserved, updated_at)
           values (?, ?, ?, ?, ?, 0, ?)`,
        )
        .bind(tenant.id, id, location.id, location.warehouseId, serials.length, at),
      db
        .prepare(
          `insert into stock_movements (id, tenant_id, product_id, location_id, warehouse_id, serial_numbers, delta,
             on_hand_after, reason, actor_type, created_at)
           values (?, ?, ?, ?, ?, ?, ?, ?, 'received', 'system', ?)`,
        )
        .bind(
          crypto.randomUUID(),
          tenant.id,
          id,
          location.id,
          location.warehouseId,
          JSON.stringify(serials),
          serials.length,
          serials.length,
          at,
        ),
      db
        .prepare(
          `insert into serial_numbers (tenant_id, product_id, serial, location_id, warehouse_id, on_hand, created_at,
             updated_at)
           select ?, ?, value, ?, ?, 1, ?, ? from json_each(?)`,
        )
        .bind(tenant.id, id, location.id, location.warehouseId, at, at, JSON.stringify(serials)),
    ]);
  }
  return ids;
}
