import { and, count, desc, eq, gte, lt, lte } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { stockMovements } from "../db/schema";
import { offsetOf, paged } from "../http/pagination";
import { selectMovements } from "./projections";
import type { MovementsQuery } from "./schemas";

const DAY_MS = 86_400_000;
const isDateOnly = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const iso = (value: string, plusMs = 0) => new Date(Date.parse(value) + plusMs).toISOString();

/** `GET /inventory/movements`, newest first. A date-only `to` includes that whole day. */
export async function listMovements(tdb: TenantDb, query: MovementsQuery) {
  const m = stockMovements;
  const where = and(
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
    selectMovements(tdb, where)
      .orderBy(desc(m.createdAt), desc(m.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    tdb.db
      .select({ value: count() })
      .from(m)
      .where(and(eq(m.tenantId, tdb.tenantId), where)),
  ]);
  return paged(rows, total?.value ?? 0, query);
}
