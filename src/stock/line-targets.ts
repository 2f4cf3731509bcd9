import { sql } from "drizzle-orm";
import { inJsonArray, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { locations, products, warehouses } from "../db/schema/tenant";
import { inTenant, inTenantAmong } from "../db/tenant-scope";
import { kitHoldsNoStock } from "./targets";

// The product and location each line of a batch names, the way ERPs key them (SKU, location code) or by
// id; read for every line at once (two statements whatever the number of lines).

/** How a line names its product and location. */
export interface LineRef {
  productId?: string;
  sku?: string;
  locationId?: string;
  locationCode?: string;
  /** Picks among locations of the same code in several warehouses. */
  warehouseCode?: string;
}

export interface LineProduct {
  id: string;
  sku: string;
  tracking: "none" | "lot" | "serial";
}

export interface LineLocation {
  id: string;
  code: string;
  warehouseId: string;
  active: boolean;
}

export type LineTarget =
  | { product: LineProduct; location: LineLocation }
  | { status: 400 | 404; errors: string[] };

/** Each line's product and location, or a 404 naming what is not found (another tenant's ids included). */
export async function resolveLineTargets(tdb: TenantDb, refs: readonly LineRef[]): Promise<LineTarget[]> {
  const values = (pick: (r: LineRef) => string | undefined) => [
    ...new Set(refs.flatMap((r) => pick(r) ?? [])),
  ];
  const productIds = values((r) => r.productId);
  const skus = values((r) => r.sku);
  const locationIds = values((r) => r.locationId);
  const locationCodes = values((r) => r.locationCode);
  const product = { id: products.id, sku: products.sku, tracking: products.tracking, type: products.type };
  const location = {
    id: locations.id,
    code: locations.code,
    warehouseId: locations.warehouseId,
    // A subquery, not a join: a batch's rows are read by column name, and both tables have `code`.
    warehouseCode: sql<string>`(select ${warehouses.code} from ${warehouses} where ${warehouses.id} = ${locations.warehouseId})`,
    active: locations.active,
  };
  // By id and by code in statements of their own: each finds its rows by its own index (an `or` of both
  // walked every product or location of the tenant).
  const read = await runBatch(tdb, {
    productsById: productIds.length
      ? tdb.db
          .select(product)
          .from(products)
          .where(inTenantAmong(tdb, products, productIds))
      : undefined,
    productsBySku: skus.length
      ? tdb.db
          .select(product)
          .from(products)
          .where(inTenant(tdb, products, inJsonArray(products.sku, skus)))
      : undefined,
    locationsById: locationIds.length
      ? tdb.db
          .select(location)
          .from(locations)
          .where(inTenantAmong(tdb, locations, locationIds))
      : undefined,
    locationsByCode: locationCodes.length
      ? tdb.db
          .select(location)
          .from(locations)
          .where(inTenant(tdb, locations, inJsonArray(locations.code, locationCodes)))
      : undefined,
  });
  const found = {
    products: [...(read.productsById ?? []), ...(read.productsBySku ?? [])],
    locations: [...(read.locationsById ?? []), ...(read.locationsByCode ?? [])],
  };
  const productById = new Map(found.products.map((p) => [p.id, p]));
  // SKUs are unique per owner (docs/decisions/merchants.md): a credential of the whole tenant may find one SKU
  // among several merchants' goods, which only a product id tells apart.
  const productsBySku = new Map<string, typeof found.products>();
  for (const p of productById.values()) productsBySku.set(p.sku, [...(productsBySku.get(p.sku) ?? []), p]);
  const locationById = new Map(found.locations.map((l) => [l.id, l]));
  return refs.map((ref) => {
    const bySku = ref.productId ? [] : (productsBySku.get(ref.sku ?? "") ?? []);
    if (bySku.length > 1) {
      return {
        status: 400,
        errors: [`sku: ${ref.sku} names products of ${bySku.length} owners (merchants); send productId`],
      };
    }
    const product = ref.productId ? productById.get(ref.productId) : bySku[0];
    const coded = found.locations.filter(
      (l) =>
        l.code === ref.locationCode &&
        (ref.warehouseCode === undefined || l.warehouseCode === ref.warehouseCode),
    );
    const location = ref.locationId
      ? locationById.get(ref.locationId)
      : coded.length === 1
        ? coded[0]
        : undefined;
    const missing = [
      ...(product
        ? []
        : [
            ref.productId
              ? `productId: product ${ref.productId} not found`
              : `sku: no product has SKU ${ref.sku}`,
          ]),
      ...(location || coded.length > 1
        ? []
        : [
            ref.locationId
              ? `locationId: location ${ref.locationId} not found`
              : `locationCode: no location has code ${ref.locationCode}${ref.warehouseCode ? ` in warehouse ${ref.warehouseCode}` : ""}`,
          ]),
    ];
    if (coded.length > 1 && !ref.locationId) {
      return {
        status: 400,
        errors: [
          ...missing,
          `warehouseCode: location code ${ref.locationCode} is used in ${coded.length} warehouses; name the warehouse`,
        ],
      };
    }
    if (!product || !location) return { status: 404, errors: missing };
    if (product.type === "kit") return { status: 400, errors: [kitHoldsNoStock(product.sku)] };
    const { warehouseCode: _w, ...place } = location;
    const { type: _t, ...stocked } = product;
    return { product: stocked, location: place };
  });
}
