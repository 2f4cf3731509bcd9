import { call } from "./http";
import type { TestTenant } from "./tenants";

/** Who creates the record: a tenant (its admin key is used) or the request headers of any credential. */
export type Creator = TestTenant | Record<string, string>;

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`.toUpperCase();

// A TestTenant's `admin` is a headers object; a header value is always a string.
const headersOf = (who: Creator): Record<string, string> =>
  typeof who.admin === "object" ? (who as TestTenant).admin : (who as Record<string, string>);

async function created(path: string, who: Creator, body: Record<string, unknown>) {
  const res = await call("POST", path, { headers: headersOf(who), body });
  if (res.status !== 201) throw new Error(`POST ${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Creates a product through POST /products (unique sku, name "Widget", price 9.99); `overrides` replace the defaults. */
export function createProduct(who: Creator, overrides: Record<string, unknown> = {}) {
  return created("/products", who, { sku: `SKU-${unique()}`, name: "Widget", price: 9.99, ...overrides });
}

/** Creates a warehouse through POST /warehouses (unique code); `overrides` replace the defaults. */
export function createWarehouse(who: Creator, overrides: Record<string, unknown> = {}) {
  return created("/warehouses", who, { code: `WH-${unique()}`, name: "Main warehouse", ...overrides });
}

/** Creates a bin in `warehouseId` through POST /locations (unique code); `overrides` replace the defaults. */
export function createLocation(who: Creator, warehouseId: string, overrides: Record<string, unknown> = {}) {
  return created("/locations", who, {
    warehouseId,
    code: `BIN-${unique()}`,
    name: "Bin",
    type: "bin",
    ...overrides,
  });
}
