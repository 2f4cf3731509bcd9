import { and, asc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { locations, products, stockMovements, warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { CsvColumn } from "../http/csv-stream";
import { isoRange } from "./date-range";
import { afterOf, offsetIn, type RowWindow } from "./window";

// The stock ledger as rows with names (product, location, warehouse), and their CSV columns: the stock movements
// report and the movements export job read and write the same rows.

/** Which ledger rows: a range of instants (ms, `to` exclusive) and optionally one product, location, warehouse, reason. */
export interface MovementFilters {
  from: number;
  to: number;
  productId?: string;
  locationId?: string;
  warehouseId?: string;
  reason?: string;
}

/** The ledger rows of `filters` (and of `keyset`, a page's start). */
export function movementsMatching(tenantDb: TenantDb, filters: MovementFilters, keyset?: SQL): SQL {
  const range = isoRange(filters);
  return inTenant(
    tenantDb,
    stockMovements,
    gte(stockMovements.createdAt, range.from),
    lt(stockMovements.createdAt, range.to),
    filters.productId ? eq(stockMovements.productId, filters.productId) : undefined,
    filters.locationId ? eq(stockMovements.locationId, filters.locationId) : undefined,
    filters.warehouseId ? eq(stockMovements.warehouseId, filters.warehouseId) : undefined,
    filters.reason ? eq(stockMovements.reason, filters.reason) : undefined,
    keyset,
  );
}

/** The ledger in time order, with the product, location and warehouse named (left joins: the ledger is never hidden). */
export function movementRows(
  tenantDb: TenantDb,
  filters: MovementFilters,
  window: RowWindow<{ createdAt: string; id: string }>,
  /** Only ledger rows up to this one (by rowid): a snapshot of the append-only ledger (a movements export). */
  throughRowid?: number,
) {
  const after = afterOf(window);
  // The plain `>=` lets SQLite start the index range at the last row sent instead of at `from`.
  const keyset = and(
    after
      ? and(
          gte(stockMovements.createdAt, after.createdAt),
          sql`(${stockMovements.createdAt}, ${stockMovements.id}) > (${after.createdAt}, ${after.id})`,
        )
      : undefined,
    throughRowid === undefined ? undefined : sql`${stockMovements}.rowid <= ${throughRowid}`,
  );
  return tenantDb.db
    .select({
      id: stockMovements.id,
      createdAt: stockMovements.createdAt,
      productId: stockMovements.productId,
      sku: products.sku,
      productName: products.name,
      warehouseId: stockMovements.warehouseId,
      // Aliased: drizzle's D1 batch maps columns by name, and both codes are `code`.
      warehouseCode: sql<string | null>`${warehouses.code}`.as("warehouse_code"),
      locationId: stockMovements.locationId,
      locationCode: sql<string | null>`${locations.code}`.as("location_code"),
      delta: stockMovements.delta,
      onHandAfter: stockMovements.onHandAfter,
      reason: stockMovements.reason,
      referenceType: stockMovements.referenceType,
      referenceId: stockMovements.referenceId,
      notes: stockMovements.notes,
      actorType: stockMovements.actorType,
      actorId: stockMovements.actorId,
    })
    .from(stockMovements)
    .leftJoin(products, inTenant(tenantDb, products, eq(products.id, stockMovements.productId)))
    .leftJoin(locations, inTenant(tenantDb, locations, eq(locations.id, stockMovements.locationId)))
    .leftJoin(warehouses, inTenant(tenantDb, warehouses, eq(warehouses.id, stockMovements.warehouseId)))
    .where(movementsMatching(tenantDb, filters, keyset))
    .orderBy(asc(stockMovements.createdAt), asc(stockMovements.id))
    .limit(window.limit)
    .offset(offsetIn(window));
}

export type MovementRow = Awaited<ReturnType<typeof movementRows>>[number];

export const movementColumns: CsvColumn<MovementRow>[] = [
  { header: "createdAt", cell: (r) => r.createdAt },
  { header: "sku", cell: (r) => r.sku },
  { header: "productName", cell: (r) => r.productName },
  { header: "warehouseCode", cell: (r) => r.warehouseCode },
  { header: "locationCode", cell: (r) => r.locationCode },
  { header: "delta", cell: (r) => r.delta },
  { header: "onHandAfter", cell: (r) => r.onHandAfter },
  { header: "reason", cell: (r) => r.reason },
  { header: "referenceType", cell: (r) => r.referenceType },
  { header: "referenceId", cell: (r) => r.referenceId },
  { header: "notes", cell: (r) => r.notes },
  { header: "actorType", cell: (r) => r.actorType },
  { header: "actorId", cell: (r) => r.actorId },
  { header: "id", cell: (r) => r.id },
  { header: "productId", cell: (r) => r.productId },
  { header: "locationId", cell: (r) => r.locationId },
  { header: "warehouseId", cell: (r) => r.warehouseId },
];
