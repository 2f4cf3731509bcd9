import { or, sql } from "drizzle-orm";
import { inJsonArray, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { locations, products, warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
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
  const read = await runBatch(tdb, {
    products: tdb.db
      .select({ id: products.id, sku: products.sku, tracking: products.tracking, type: products.type })
      .from(products)
      .where(
        inTenant(
          tdb,
          products,
          or(
            inJsonArray(
              products.id,
              values((r) => r.productId),
            ),
            inJsonArray(
              products.sku,
              values((r) => r.sku),
            ),
          ),
        ),
      ),
    locations: tdb.db
      .select({
        id: locations.id,
        code: locations.code,
        warehouseId: locations.warehouseId,
        // A subquery, not a join: a batch's rows are read by column name, and both tables have `code`.
        warehouseCode: sql<string>`(select ${warehouses.code} from ${warehouses} where ${warehouses.id} = ${locations.warehouseId})`,
        active: locations.active,
      })
      .from(locations)
      .where(
        inTenant(
          tdb,
          locations,
          or(
            inJsonArray(
              locations.id,
              values((r) => r.locationId),
            ),
            inJsonArray(
              locations.code,
              values((r) => r.locationCode),
            ),
          ),
        ),
      ),
  });
  const productById = new Map(read.products.map((p) => [p.id, p]));
  const productBySku = new Map(read.products.map((p) => [p.sku, p]));
  const locationById = new Map(read.locations.map((l) => [l.id, l]));
  return refs.map((ref) => {
    const product = ref.productId ? productById.get(ref.productId) : productBySku.get(ref.sku ?? "");
    const coded = read.locations.filter(
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
