import { count, desc, eq } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { billingRateCards as cards } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { offsetOf, paged } from "../http/pagination";
import { rateCardRecord } from "./records";
import type { ListRateCardsQuery } from "./schemas";

/** Rate cards, the latest effective first (a merchant's current card heads its list). */
export async function listRateCards(tdb: TenantDb, query: ListRateCardsQuery) {
  const where = inTenant(tdb, cards, query.merchantId ? eq(cards.merchantId, query.merchantId) : undefined);
  const read = await runBatch(tdb, {
    rows: tdb.db
      .select()
      .from(cards)
      .where(where)
      .orderBy(desc(cards.effectiveFrom), desc(cards.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    count: tdb.db.select({ value: count() }).from(cards).where(where),
  });
  return paged(read.rows.map(rateCardRecord), read.count[0]?.value ?? 0, query);
}
