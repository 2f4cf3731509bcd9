import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { lots } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { isExpired, today } from "../stock";
import type { LotRecord } from "./schemas";

type LotRow = typeof lots.$inferSelect;

/** A lot as the API shows it, `expired` as of `day`. */
export const lotRecord = (row: LotRow, day = today()): LotRecord => ({
  id: row.id,
  productId: row.productId,
  number: row.number,
  expiresAt: row.expiresAt,
  manufacturedAt: row.manufacturedAt,
  expired: isExpired(row.expiresAt, day),
  createdAt: row.createdAt,
});

/** The lot, in the tenant (inside a batch). */
export const lotQuery = (tdb: TenantDb, id: string) =>
  tdb.db
    .select()
    .from(lots)
    .where(inTenant(tdb, lots, eq(lots.id, id)));
