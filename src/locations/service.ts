import { and, asc, count, desc, eq, exists, like, not, or, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { asConflict } from "../db/constraint-errors";
import { readPage } from "../db/pages";
import { locations, stockLevels, warehouses } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError, conflict, notFound } from "../http/errors";
import { offsetOf } from "../http/pagination";
import { holdsStock } from "../inventory/stock-statements";
import type { CreateLocationBody, ListLocationsQuery, UpdateLocationBody } from "./schemas";

type LocationRow = typeof locations.$inferSelect;

export function locationRecord({ tenantId: _t, ...row }: LocationRow) {
  return row;
}

const duplicateCode = {
  "locations.tenant_id, locations.warehouse_id, locations.code":
    "A location with this code already exists in the warehouse",
};
const ofLocation = (tdb: TenantDb, id: string) => inTenant(tdb, locations, eq(locations.id, id));

async function findLocation(tdb: TenantDb, id: string) {
  const [row] = await tdb.db.select().from(locations).where(ofLocation(tdb, id)).limit(1);
  return row;
}

/** A parent must be another location of the same warehouse. */
async function assertParent(
  tdb: TenantDb,
  parentId: string | null | undefined,
  warehouseId: string,
  selfId?: string,
) {
  if (!parentId) return;
  const parent = await findLocation(tdb, parentId);
  if (!parent || parent.warehouseId !== warehouseId || parent.id === selfId) {
    throw new AppError("VALIDATION_FAILED", "Validation failed", {
      errors: ["parentId: must be another location of the same warehouse"],
    });
  }
}

export async function createLocation(tdb: TenantDb, input: CreateLocationBody) {
  const [warehouse] = await tdb.db
    .select({ id: warehouses.id })
    .from(warehouses)
    .where(inTenant(tdb, warehouses, eq(warehouses.id, input.warehouseId)))
    .limit(1);
  if (!warehouse)
    throw new AppError("NOT_FOUND", "Warehouse not found", { errors: ["warehouseId: warehouse not found"] });
  await assertParent(tdb, input.parentId, input.warehouseId);
  const now = new Date().toISOString();
  const row: LocationRow = {
    id: uuidv7(),
    tenantId: tdb.tenantId,
    warehouseId: input.warehouseId,
    code: input.code,
    name: input.name,
    type: input.type,
    parentId: input.parentId ?? null,
    active: input.active ?? true,
    createdAt: now,
    updatedAt: now,
  };
  await tdb.db
    .insert(locations)
    .values(row)
    .catch((error) => asConflict(error, duplicateCode));
  return locationRecord(row);
}

export async function getLocation(tdb: TenantDb, id: string) {
  const row = await findLocation(tdb, id);
  if (!row) throw notFound("Location");
  return locationRecord(row);
}

const sortColumns = { code: locations.code, name: locations.name, createdAt: locations.createdAt };

export function listLocations(tdb: TenantDb, query: ListLocationsQuery) {
  const order = query.sort.direction === "asc" ? asc : desc;
  const pattern = query.search ? `%${query.search.replace(/[%_]/g, "")}%` : undefined;
  const where = inTenant(
    tdb,
    locations,
    query.warehouseId ? eq(locations.warehouseId, query.warehouseId) : undefined,
    query.type ? eq(locations.type, query.type) : undefined,
    pattern ? or(like(locations.code, pattern), like(locations.name, pattern)) : undefined,
  );
  return readPage(
    tdb,
    query,
    {
      rows: tdb.db
        .select()
        .from(locations)
        .where(where)
        .orderBy(order(sortColumns[query.sort.field]), order(locations.id))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: tdb.db.select({ value: count() }).from(locations).where(where),
    },
    locationRecord,
  );
}

export async function updateLocation(tdb: TenantDb, id: string, input: UpdateLocationBody) {
  const current = await getLocation(tdb, id);
  await assertParent(tdb, input.parentId, current.warehouseId, id);
  const [row] = await tdb.db
    .update(locations)
    .set({
      code: input.code,
      name: input.name,
      type: input.type,
      parentId: input.parentId ?? null,
      active: input.active ?? true,
      updatedAt: new Date().toISOString(),
    })
    .where(ofLocation(tdb, id))
    .returning()
    .catch((error) => asConflict(error, duplicateCode));
  if (!row) throw notFound("Location");
  return locationRecord(row);
}

/** Refused while it holds stock or has child locations; its empty stock rows go with it. */
export async function deleteLocation(tdb: TenantDb, id: string) {
  const location = await getLocation(tdb, id);
  const children = tdb.db
    .select({ one: sql`1` })
    .from(locations)
    .where(inTenant(tdb, locations, eq(locations.parentId, id)));
  const blocked = sql`(${holdsStock(tdb, eq(stockLevels.locationId, id))} or ${exists(children)})`;
  const { location: removed } = await runBatch(tdb, {
    stock: tdb.db
      .delete(stockLevels)
      .where(inTenant(tdb, stockLevels, eq(stockLevels.locationId, id), not(blocked))),
    location: tdb.db.delete(locations).where(and(ofLocation(tdb, id), not(blocked))),
  });
  if (removed.meta.changes === 0) throw conflict("The location holds stock or has child locations");
  return location;
}
