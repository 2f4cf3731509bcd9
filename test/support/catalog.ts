import { call } from "./http";
import type { TestTenant } from "./tenants";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`.toUpperCase();

async function created(path: string, tenant: TestTenant, body: Record<string, unknown>) {
  const res = await call("POST", path, { headers: tenant.admin, body });
  if (res.status !== 201) throw new Error(`POST ${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Creates a product through POST /products with the tenant's admin key; `overrides` replace the defaults. */
export function createProduct(tenant: TestTenant, overrides: Record<string, unknown> = {}) {
  return created("/products", tenant, { sku: `SKU-${unique()}`, name: "Widget", price: 9.99, ...overrides });
}

export function createWarehouse(tenant: TestTenant, overrides: Record<string, unknown> = {}) {
  return created("/warehouses", tenant, { code: `WH-${unique()}`, name: "Main warehouse", ...overrides });
}

export function createLocation(
  tenant: TestTenant,
  warehouseId: string,
  overrides: Record<string, unknown> = {},
) {
  return created("/locations", tenant, {
    warehouseId,
    code: `BIN-${unique()}`,
    name: "Bin",
    type: "bin",
    ...overrides,
  });
}
