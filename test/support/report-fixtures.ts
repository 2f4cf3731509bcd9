import { env } from "cloudflare:workers";
import type { TestTenant } from "./tenants";

// Rows for the report tests, written straight into D1: reports only read, and the catalog and inventory
// endpoints that would write these are being built at the same time. Costs are in ten-thousandths,
// exactly as the catalog stores them.

const now = "2026-11-01T00:00:00.000Z";

export async function seedWarehouse(tenant: TestTenant, code: string) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "insert into warehouses (id, tenant_id, code, name, created_at, updated_at) values (?, ?, ?, ?, ?, ?)",
  )
    .bind(id, tenant.id, code, `Warehouse ${code}`, now, now)
    .run();
  return id;
}

export async function seedLocation(tenant: TestTenant, warehouseId: string, code: string) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `insert into locations (id, tenant_id, warehouse_id, code, name, type, created_at, updated_at)
     values (?, ?, ?, ?, ?, 'bin', ?, ?)`,
  )
    .bind(id, tenant.id, warehouseId, code, `Bin ${code}`, now, now)
    .run();
  return { id, warehouseId };
}

export interface ProductSeed {
  sku: string;
  name: string;
  category?: string;
  costE4?: number | null;
  reorderPoint?: number;
  status?: "Active" | "Inactive";
}

export async function seedProduct(tenant: TestTenant, product: ProductSeed) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `insert into products (id, tenant_id, sku, name, category, cost_e4, reorder_point, status, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      id,
      tenant.id,
      product.sku,
      product.name,
      product.category ?? null,
      product.costE4 ?? null,
      product.reorderPoint ?? 0,
      product.status ?? "Active",
      now,
      now,
    )
    .run();
  return id;
}

export async function seedLevel(
  tenant: TestTenant,
  productId: string,
  location: { id: string; warehouseId: string },
  onHand: number,
  reserved = 0,
) {
  await env.DB.prepare(
    `insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, on_hand, reserved, updated_at)
     values (?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(tenant.id, productId, location.id, location.warehouseId, onHand, reserved, now)
    .run();
}

export interface MovementSeed {
  productId: string;
  location: { id: string; warehouseId: string };
  delta: number;
  reason: string;
  createdAt: string;
  notes?: string;
}

export async function seedMovement(tenant: TestTenant, movement: MovementSeed) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
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
  location: { id: string; warehouseId: string },
  count: number,
) {
  await env.DB.prepare(
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

/** RFC 4180 parsing for assertions: quoted fields may hold commas, quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += char;
  }
  if (field !== "" || row.length) throw new Error("CSV does not end with CRLF");
  return rows;
}

/** The CSV's records as objects keyed by its header row. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header = [], ...records] = parseCsv(text);
  return records.map((record) => Object.fromEntries(header.map((name, i) => [name, record[i] ?? ""])));
}

/**
 * What a JSON report row looks like in the CSV: null is empty, numbers as written, and text that a
 * spreadsheet would run as a formula prefixed with `'`.
 */
export function asCsvCells(item: Record<string, unknown>, headers: string[]): Record<string, string> {
  return Object.fromEntries(
    headers.map((name) => {
      const value = item[name];
      if (value === null || value === undefined) return [name, ""];
      const text = String(value);
      return [name, typeof value === "string" && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text];
    }),
  );
}

/**
 * `count` products P-0000.. with cost 1 and reorder point 5, each with one stock level: `highUnits` for
 * products numbered highFrom..highTo-1, `lowUnits` for the rest. Recursive CTEs: no parameter limit applies.
 */
export async function seedManyStockedProducts(
  tenant: TestTenant,
  location: { id: string; warehouseId: string },
  count: number,
  onHand: { highFrom: number; highTo: number; lowUnits: number; highUnits: number },
) {
  const numbers = "with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ?)";
  await env.DB.batch([
    env.DB.prepare(
      `${numbers} insert into products (id, tenant_id, sku, name, cost_e4, reorder_point, created_at, updated_at)
       select printf('20000000-0000-4000-8000-%012d', i), ?, printf('P-%04d', i), 'Bulk', 10000, 5, ?, ? from n`,
    ).bind(count, tenant.id, now, now),
    env.DB.prepare(
      `${numbers} insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, on_hand, reserved, updated_at)
       select ?, printf('20000000-0000-4000-8000-%012d', i), ?, ?, case when i >= ? and i < ? then ? else ? end, 0, ? from n`,
    ).bind(
      count,
      tenant.id,
      location.id,
      location.warehouseId,
      onHand.highFrom,
      onHand.highTo,
      onHand.highUnits,
      onHand.lowUnits,
      now,
    ),
  ]);
}
