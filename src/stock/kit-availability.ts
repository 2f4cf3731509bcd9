import { z } from "@hono/zod-openapi";
import { asc, eq } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { kitComponents, products, warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { toHold } from "./hold-projection";
import { reservationReads } from "./reservations";

// A kit holds no stock: how many it can sell is derived from its components, per warehouse, from exactly what a
// sales order would reserve (the reservation read: active locations, no expired lot, expired holds counted free).

export const KitStockLevelRecord = z
  .object({
    productId: z.uuid().openapi({ description: "The kit." }),
    sku: z.string(),
    productName: z.string(),
    warehouseId: z.uuid(),
    warehouseCode: z.string(),
    available: z.number().int().openapi({
      description:
        "Complete kits the components' available stock makes here: the minimum over components of floor(available / quantity).",
    }),
    components: z.array(
      z.object({
        productId: z.uuid(),
        sku: z.string(),
        quantity: z.number().int().openapi({ description: "Units in one kit." }),
        available: z.number().int().openapi({ description: "Units an order could reserve here." }),
      }),
    ),
  })
  .openapi("KitStockLevel");
export type KitStockLevelRecord = z.infer<typeof KitStockLevelRecord>;

/** Complete kits from each component's available units: the minimum of floor(available / quantity). */
export const completeKits = (components: readonly { quantity: number; available: number }[]) =>
  components.length === 0 ? 0 : Math.min(...components.map((c) => Math.floor(c.available / c.quantity)));

/**
 * The kit's availability in each of the tenant's warehouses (or the one named), by warehouse code; undefined
 * when `kitId` is not a kit of the tenant.
 */
export async function kitStockLevels(
  tdb: TenantDb,
  kitId: string,
  warehouseId: string | undefined,
): Promise<KitStockLevelRecord[] | undefined> {
  const now = new Date().toISOString();
  const read = await runBatch(tdb, {
    kit: tdb.db
      .select({ id: products.id, sku: products.sku, name: products.name })
      .from(products)
      .where(inTenant(tdb, products, eq(products.id, kitId), eq(products.type, "kit"))),
    components: tdb.db
      .select({ productId: kitComponents.componentId, sku: products.sku, quantity: kitComponents.quantity })
      .from(kitComponents)
      .innerJoin(products, eq(products.id, kitComponents.componentId))
      .where(inTenant(tdb, kitComponents, eq(kitComponents.kitId, kitId))),
  });
  const [kit] = read.kit;
  if (!kit) return undefined;
  const stock = await runBatch(tdb, {
    warehouses: tdb.db
      .select({ id: warehouses.id, code: warehouses.code })
      .from(warehouses)
      .where(inTenant(tdb, warehouses, warehouseId ? eq(warehouses.id, warehouseId) : undefined))
      .orderBy(asc(warehouses.code)),
    ...reservationReads(
      tdb,
      read.components.map((c) => c.productId),
      { warehouseId },
      now,
    ),
  });
  const units = new Map<string, number>();
  const add = (productId: string, warehouse: string, quantity: number) => {
    const key = `${productId}|${warehouse}`;
    units.set(key, (units.get(key) ?? 0) + quantity);
  };
  for (const c of stock.candidates) add(c.productId, c.warehouseId, Math.max(c.available, 0));
  // An expired hold's stock is free for an order (the order's batch releases the hold first).
  for (const hold of stock.expiredHolds.map(toHold)) {
    for (const a of hold.allocations) add(hold.productId, a.warehouseId, a.quantity);
  }
  return stock.warehouses.map((warehouse) => {
    const components = read.components.map((c) => ({
      ...c,
      available: units.get(`${c.productId}|${warehouse.id}`) ?? 0,
    }));
    return {
      productId: kit.id,
      sku: kit.sku,
      productName: kit.name,
      warehouseId: warehouse.id,
      warehouseCode: warehouse.code,
      available: completeKits(components),
      components,
    };
  });
}
