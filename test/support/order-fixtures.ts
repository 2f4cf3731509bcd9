import { env } from "cloudflare:workers";
import { call } from "./http";
import type { TestTenant } from "./tenants";

// Catalog and stock rows for order tests, written straight into D1 because the catalog and inventory
// endpoints (and their helpers in test/support) are being built at the same time as orders.
// Every stock level gets the ledger row that explains it, so "ledger sums to onHand" holds from the start.

const now = () => new Date().toISOString();
let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export async function seedWarehouse(tenant: TestTenant) {
  const warehouseId = crypto.randomUUID();
  await env.DB.prepare(
    "insert into warehouses (id, tenant_id, code, name, active, created_at, updated_at) values (?, ?, ?, ?, 1, ?, ?)",
  )
    .bind(warehouseId, tenant.id, `WH-${unique()}`, "Main", now(), now())
    .run();
  return warehouseId;
}

export async function seedLocation(tenant: TestTenant, warehouseId: string) {
  const locationId = crypto.randomUUID();
  await env.DB.prepare(
    `insert into locations (id, tenant_id, warehouse_id, code, name, type, active, created_at, updated_at)
     values (?, ?, ?, ?, ?, 'bin', 1, ?, ?)`,
  )
    .bind(locationId, tenant.id, warehouseId, `BIN-${unique()}`, "Bin", now(), now())
    .run();
  return locationId;
}

export async function seedProduct(
  tenant: TestTenant,
  options: { status?: "Active" | "Inactive"; reorderPoint?: number } = {},
) {
  const productId = crypto.randomUUID();
  await env.DB.prepare(
    `insert into products (id, tenant_id, sku, name, status, reorder_point, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      productId,
      tenant.id,
      `SKU-${unique()}`,
      "Widget",
      options.status ?? "Active",
      options.reorderPoint ?? 0,
      now(),
      now(),
    )
    .run();
  return productId;
}

export async function seedStock(
  tenant: TestTenant,
  stock: { productId: string; locationId: string; warehouseId: string; quantity: number },
) {
  await env.DB.batch([
    env.DB.prepare(
      `insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, on_hand, reserved, updated_at)
       values (?, ?, ?, ?, ?, 0, ?)
       on conflict (tenant_id, product_id, location_id) do update set on_hand = on_hand + excluded.on_hand`,
    ).bind(tenant.id, stock.productId, stock.locationId, stock.warehouseId, stock.quantity, now()),
    env.DB.prepare(
      `insert into stock_movements (id, tenant_id, product_id, location_id, warehouse_id, delta, on_hand_after,
         reason, actor_type, created_at)
       select ?, tenant_id, product_id, location_id, warehouse_id, ?, on_hand, 'cycle_count', 'system', ?
       from stock_levels where tenant_id = ? and product_id = ? and location_id = ?`,
    ).bind(crypto.randomUUID(), stock.quantity, now(), tenant.id, stock.productId, stock.locationId),
  ]);
}

/** A warehouse with one location holding `quantity` of a new product. */
export async function stockedProduct(
  tenant: TestTenant,
  quantity: number,
  options: { status?: "Active" | "Inactive"; reorderPoint?: number } = {},
) {
  const warehouseId = await seedWarehouse(tenant);
  const locationId = await seedLocation(tenant, warehouseId);
  const productId = await seedProduct(tenant, options);
  if (quantity > 0) await seedStock(tenant, { productId, locationId, warehouseId, quantity });
  return { warehouseId, locationId, productId };
}

export interface StockRow {
  productId: string;
  locationId: string;
  onHand: number;
  reserved: number;
  ledgerSum: number;
}

/** Every stock level of a product with the sum of its ledger, read from D1. */
export async function stockOf(tenant: TestTenant, productId: string): Promise<StockRow[]> {
  const { results } = await env.DB.prepare(
    `select s.product_id as productId, s.location_id as locationId, s.on_hand as onHand, s.reserved as reserved,
       (select coalesce(sum(delta), 0) from stock_movements m
         where m.tenant_id = s.tenant_id and m.product_id = s.product_id and m.location_id = s.location_id) as ledgerSum
     from stock_levels s where s.tenant_id = ? and s.product_id = ? order by s.location_id`,
  )
    .bind(tenant.id, productId)
    .all<StockRow>();
  return results;
}

/** Sum of the open reservations of a product (what `reserved` must equal). */
export async function openReservations(tenant: TestTenant, productId: string): Promise<number> {
  const row = await env.DB.prepare(
    "select coalesce(sum(quantity), 0) as total from order_reservations where tenant_id = ? and product_id = ?",
  )
    .bind(tenant.id, productId)
    .first<{ total: number }>();
  return row?.total ?? 0;
}

export async function outboxTypes(tenant: TestTenant): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "select type from outbox_events where tenant_id = ? order by created_at, id",
  )
    .bind(tenant.id)
    .all<{ type: string }>();
  return results.map((r) => r.type);
}

export const address = { street: "1 Main St", city: "Springfield", zip: "12345" };

/** POST /orders/sales for one line. */
export function salesOrder(
  tenant: TestTenant,
  lines: { productId: string; quantity: number; price?: number }[],
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = tenant.admin,
) {
  return call("POST", "/orders/sales", {
    headers,
    body: {
      customerId: crypto.randomUUID(),
      lines: lines.map((l) => ({ price: 1, ...l })),
      shippingAddress: address,
      ...extra,
    },
  });
}

export function setStatus(tenant: TestTenant, orderId: string, body: Record<string, unknown>) {
  return call("PATCH", `/orders/${orderId}/status`, { headers: tenant.admin, body });
}
