import { asc, count, eq, gt, lt, lte, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { readPage } from "../db/pages";
import { lots } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { today } from "../stock";
import { lotRecord } from "./records";
import type { LotsQuery } from "./schemas";

/** `GET /lots`: soonest expiry first (lots without expiry last), then number. */
export function listLots(tdb: TenantDb, query: LotsQuery) {
  const day = today();
  const filters: (SQL | undefined)[] = [
    query.productId ? eq(lots.productId, query.productId) : undefined,
    query.number ? eq(lots.number, query.number) : undefined,
    query.expiringBefore ? lt(lots.expiresAt, query.expiringBefore) : undefined,
    query.expired === true ? lte(lots.expiresAt, day) : undefined,
    query.expired === false ? sql`(${lots.expiresAt} is null or ${gt(lots.expiresAt, day)})` : undefined,
  ];
  return readPage(
    tdb,
    query,
    {
      rows: tdb.db
        .select()
        .from(lots)
        .where(inTenant(tdb, lots, ...filters)),
      order: [sql`${lots.expiresAt} is null`, asc(lots.expiresAt), asc(lots.number), asc(lots.id)],
      count: tdb.db
        .select({ value: count() })
        .from(lots)
        .where(inTenant(tdb, lots, ...filters)),
    },
    (row) => lotRecord(row, day),
  );
}
