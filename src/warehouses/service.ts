import { and, asc, count, desc, eq, like, not, or } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { asConflict } from "../db/constraint-errors";
import { readPage } from "../db/pages";
import { locations, stockLevels, warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict, notFound } from "../http/errors";
import { offsetOf } from "../http/pagination";
import { holdsStock } from "../inventory/stock-statements";
import type { ListWarehousesQuery, WarehouseBody } from "./schemas";

type WarehouseRow = typeof warehouses.$inferSelect;

export function warehouseRecord({ tenantId: _t, ...row }: WarehouseRow) {
  return { ...row, address: row.address ?? null };
}

const duplicateCode = {
  "warehouses.tenant_id, warehouses.code": "A warehouse with this code already exists",
};
const ofWarehouse = (tdb: TenantDb, id: string) => inTenant(tdb, warehouses, eq(warehouses.id, id));

export async function createWarehouse(tdb: TenantDb, input: WarehouseBody) {
  const now = new Date().toISOString();
  const row: WarehouseRow = {
    id: uuidv7(),
    tenantId: tdb.tenantId,
    code: input.code,
    name: input.name,
    address: input.address ?? null,
    active: input.active ?? true,
    createdAt: now,
    updatedAt: now,
  };
  await tdb.db
    .insert(warehouses)
    .values(row)
    .catch((error) => asConflict(error, duplicateCode));
  return warehouseRecord(row);
}

export async function getWarehouse(tdb: TenantDb, id: string) {
  const [row] = await tdb.db.select().from(warehouses).where(ofWarehouse(tdb, id)).limit(1);
  if (!row) throw notFound("Warehouse");
  return warehouseRecord(row);
}

const sortColumns = { code: warehouses.code, name: warehouses.name, createdAt: warehouses.createdAt };

export function listWarehouses(tdb: TenantDb, query: ListWarehousesQuery) {
  const order = query.sort.direction === "asc" ? asc : desc;
  const pattern = query.search ? `%${query.search.replace(/[%_]/g, "")}%` : undefined;
  const where = inTenant(
    tdb,
    warehouses,
    pattern ? or(like(warehouses.code, pattern), like(warehouses.name, pattern)) : undefined,
  );
  return readPage(
    tdb,
    query,
    {
      rows: tdb.db
        .select()
        .from(warehouses)
        .where(where)
        .orderBy(order(sortColumns[query.sort.field]), order(warehouses.id))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: tdb.db.select({ value: count() }).from(warehouses).where(where),
    },
    warehouseRecord,
  );
}

export async function updateWarehouse(tdb: TenantDb, id: string, input: WarehouseBody) {
  const [row] = await tdb.db
    .update(warehouses)
    .set({
      code: input.code,
      name: input.name,
      address: input.address ?? null,
      active: input.active ?? true,
      updatedAt: new Date().toISOString(),
    })
    .where(ofWarehouse(tdb, id))
    .returning()
    .catch((error) => asConflict(error, duplicateCode));
  if (!row) throw notFound("Warehouse");
  return warehouseRecord(row);
}

/** Refused while any of its locations holds stock; otherwise its empty locations go with it. */
export async function deleteWarehouse(tdb: TenantDb, id: string) {
  const warehouse = await getWarehouse(tdb, id);
  const empty = not(holdsStock(tdb, eq(stockLevels.warehouseId, id)));
  const { warehouse: removed } = await runBatch(tdb, {
    stock: tdb.db
      .delete(stockLevels)
      .where(inTenant(tdb, stockLevels, eq(stockLevels.warehouseId, id), empty)),
    locations: tdb.db.delete(locations).where(inTenant(tdb, locations, eq(locations.warehouseId, id), empty)),
    warehouse: tdb.db.delete(warehouses).where(and(ofWarehouse(tdb, id), empty)),
  });
  if (removed.meta.changes === 0) throw conflict("The warehouse holds stock; move or adjust it out first");
  return warehouse;
}
