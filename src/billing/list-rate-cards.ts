import { count, desc, eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { readPage } from "../db/pages";
import { billingRateCards as cards } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { rateCardRecord } from "./records";
import type { ListRateCardsQuery } from "./schemas";

/** Rate cards, the latest effective first (a merchant's current card heads its list). */
export function listRateCards(tdb: TenantDb, query: ListRateCardsQuery) {
  const where = inTenant(tdb, cards, query.merchantId ? eq(cards.merchantId, query.merchantId) : undefined);
  return readPage(
    tdb,
    query,
    {
      rows: tdb.db.select().from(cards).where(where),
      order: [desc(cards.effectiveFrom), desc(cards.id)],
      count: tdb.db.select({ value: count() }).from(cards).where(where),
    },
    rateCardRecord,
  );
}
