import { and, asc, count, desc, eq, like, or, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { TenantDb } from "../db/client";
import { asConflict } from "../db/constraint-errors";
import { locations, stockLevels, warehouses } from "../db/schema";
import { AppError, conflict, notFound } from "../http/errors";
import { offsetOf, paged } from "../http/pagination";
import type { CreateLocationBody, ListLocationsQuery, UpdateLocationBody } from "./schemas";

type LocationRow = typeof locations.$inferSelect;

export function locationRecord({ tenantId: _t, ...row }: LocationRow) {
  return row;
}

const duplicateCode = {
  "locations.tenant_id, locations.warehouse_id, locations.code":
    "A location with this code already exists in the warehouse",
};
const ofLocation = (tdb: TenantDb, id: string) =>
  and(eq(locations.tenantId, tdb.tenantId), eq(locations.id, id));

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
    .where(and(eq(warehouses.tenantId, tdb.tenantId), eq(warehouses.id, input.warehouseId)))
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

export async function listLocations(tdb: TenantDb, query: ListLocationsQuery) {
  const order = query.sort.direction === "asc" ? asc : desc;
  const pattern = query.search ? `%${query.search.replace(/[%_]/g, "")}%` : undefined;
  const where = and(
    eq(locations.tenantId, tdb.tenantId),
    query.warehouseId ? eq(locations.warehouseId, query.warehouseId) : undefined,
    query.type ? eq(locations.type, query.type) : undefined,
    pattern ? or(like(locations.code, pattern), like(locations.name, pattern)) : undefined,
  );
  const [rows, [total]] = await tdb.db.batch([
    tdb.db
      .select()
      .from(locations)
      .where(where)
      .orderBy(order(sortColumns[query.sort.field]), order(locations.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    tdb.db.select({ value: count() }).from(locations).where(where),
  ]);
  return paged(rows.map(locationRecord), total?.value ?? 0, query);
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
  const blocked = sql`(exists (select 1 from stock_levels where tenant_id = ${tdb.tenantId} and location_id = ${id} and (on_hand > 0 or reserved > 0))
    or exists (select 1 from locations where tenant_id = ${tdb.tenantId} and parent_id = ${id}))`;
  const [, removed] = await tdb.db.batch([
    tdb.db
      .delete(stockLevels)
      .where(
        and(eq(stockLevels.tenantId, tdb.tenantId), eq(stockLevels.locationId, id), sql`not ${blocked}`),
      ),
    tdb.db.delete(locations).where(and(ofLocation(tdb, id), sql`not ${blocked}`)),
  ]);
  if (removed.meta.changes === 0) throw conflict("The location holds stock or has child locations");
  return location;
}
