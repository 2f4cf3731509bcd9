import { env } from "cloudflare:workers";
import { call } from "./http";
import { adjustStock, type LevelCheck, levelsWithLedger } from "./stock";
import type { TestTenant } from "./tenants";

// Catalog rows written straight into D1: unlike test/support/catalog.ts they emit no product events,
// which suites that assert on the outbox (inventory, webhooks) rely on. Stock goes through the inventory API.

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

/** A warehouse with one location holding `quantity` of a new product. */
export async function stockedProduct(
  tenant: TestTenant,
  quantity: number,
  options: { status?: "Active" | "Inactive"; reorderPoint?: number } = {},
) {
  const warehouseId = await seedWarehouse(tenant);
  const locationId = await seedLocation(tenant, warehouseId);
  const productId = await seedProduct(tenant, options);
  if (quantity > 0) await adjustStock(tenant, productId, locationId, quantity);
  return { warehouseId, locationId, productId };
}

/** Every stock level of a product with the sum of its ledger. */
export async function stockOf(tenant: TestTenant, productId: string): Promise<LevelCheck[]> {
  return (await levelsWithLedger(tenant)).filter((level) => level.productId === productId);
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

/** The tenant's order and low-stock events in order (not the catalog and adjustment events of the set-up). */
export async function outboxTypes(tenant: TestTenant): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `select type from outbox_events where tenant_id = ?
       and (type like 'order.%' or type like 'purchase_order.%' or type = 'inventory.low_stock')
     order by created_at, id`,
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
