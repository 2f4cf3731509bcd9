import { eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { TenantDb } from "../db/client";
import { stockLevels, stockMovements } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { validationError } from "../http/validation";

const m = alias(stockMovements, "as_of_movement");

/**
 * The ledger row that was a level's last at `asOf` (inclusive): one probe of the (tenant, product,
 * location, lot, created_at) index per level, so a page costs its own levels whatever the ledger's length.
 * Per level, created_at is strictly increasing in commit order (ledgerRow), so "last by created_at" is
 * "last committed", and its on_hand_after is the sum of the ledger up to that instant.
 */
export const lastMovementAt = (tdb: TenantDb, asOf: string) =>
  tdb.db
    .select({ rowid: sql`${m}.rowid` })
    .from(m)
    .where(
      inTenant(
        tdb,
        m,
        eq(m.productId, stockLevels.productId),
        eq(m.locationId, stockLevels.locationId),
        eq(m.lotId, stockLevels.lotId),
        sql`${m.createdAt} <= ${asOf}`,
      ),
    )
    .orderBy(sql`${m.createdAt} desc`)
    .limit(1);

/** `asOf` as stored timestamps compare; in the future it is 400 (the ledger cannot know it yet). */
export function asOfInstant(asOf: string, now = new Date()): string {
  const at = Date.parse(asOf);
  if (at > now.getTime()) throw validationError(["asOf: must not be in the future"]);
  return new Date(at).toISOString();
}
