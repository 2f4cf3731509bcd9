import { and, count, desc, eq, gte, lt, lte } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { stockMovements } from "../db/schema";
import { offsetOf, paged } from "../http/pagination";
import type { MovementsQuery } from "./schemas";

const DAY_MS = 86_400_000;
const isDateOnly = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const iso = (value: string, plusMs = 0) => new Date(Date.parse(value) + plusMs).toISOString();

/** `GET /inventory/movements`, newest first. A date-only `to` includes that whole day. */
export async function listMovements(tdb: TenantDb, query: MovementsQuery) {
  const m = stockMovements;
  const where = and(
    eq(m.tenantId, tdb.tenantId),
    query.productId ? eq(m.productId, query.productId) : undefined,
    query.locationId ? eq(m.locationId, query.locationId) : undefined,
    query.warehouseId ? eq(m.warehouseId, query.warehouseId) : undefined,
    query.reason ? eq(m.reason, query.reason) : undefined,
    query.reference ? eq(m.referenceId, query.reference) : undefined,
    query.from ? gte(m.createdAt, iso(query.from)) : undefined,
    query.to
      ? isDateOnly(query.to)
        ? lt(m.createdAt, iso(query.to, DAY_MS))
        : lte(m.createdAt, iso(query.to))
      : undefined,
  );
  const [rows, [total]] = await tdb.db.batch([
    tdb.db
      .select({
        id: m.id,
        productId: m.productId,
        locationId: m.locationId,
        warehouseId: m.warehouseId,
        delta: m.delta,
        onHandAfter: m.onHandAfter,
        reason: m.reason,
        referenceType: m.referenceType,
        referenceId: m.referenceId,
        notes: m.notes,
        actorType: m.actorType,
        actorId: m.actorId,
        requestId: m.requestId,
        createdAt: m.createdAt,
      })
      .from(m)
      .where(where)
      .orderBy(desc(m.createdAt), desc(m.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    tdb.db.select({ value: count() }).from(m).where(where),
  ]);
  return paged(rows, total?.value ?? 0, query);
}
