import { sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { runBatch } from "../db/batch";
import { dbFor, type TenantDb, tenantDatabases } from "../db/client";
import {
  deletedStockLevels,
  locations,
  merchants,
  products,
  billingStorageSnapshots as snapshots,
  stockLevels,
  stockMovements,
} from "../db/schema/tenant";
import type { Bindings } from "../env";

const DAY_MS = 86_400_000;
// Snapshots one cron run takes (one statement each): a merchant days behind catches up over a few minutes.
const SNAPSHOTS_PER_RUN = 50;

const dayAfter = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10);

/**
 * The statement taking `merchantId`'s snapshot of `day`: each of its levels as the ledger had it at the day's end
 * (the last movement before the next midnight, so a day taken late is the day as it was), summed by location type;
 * nothing if the day is already taken (the unique key on tenant, merchant and day). Its levels are those that exist
 * and those deleted since the day ended (with their location, warehouse or product), as `keepDeletedLevels` kept
 * them with their location's type and merchant; a level deleted before then was empty at the day's end.
 */
export function snapshotStatement(tdb: TenantDb, merchantId: string, day: string, takenAt: string) {
  const end = `${dayAfter(day)}T00:00:00.000Z`;
  const t = tdb.tenantId;
  return sql`insert into ${snapshots} (id, tenant_id, merchant_id, day, units, by_location_type, taken_at)
    select ${uuidv7()}, ${t}, ${merchantId}, ${day}, coalesce(sum(by_type.units), 0),
      coalesce(json_group_array(json_object('locationType', by_type.type, 'locations', by_type.locations,
        'units', by_type.units)) filter (where by_type.type is not null), '[]'), ${takenAt}
    from (
      select held.location_type as type, count(distinct held.location_id) as locations, sum(held.on_hand) as units
      from (
        select level.location_id as location_id, level.location_type as location_type,
          (select mv.on_hand_after from ${stockMovements} mv where mv.tenant_id = ${t}
            and mv.product_id = level.product_id and mv.location_id = level.location_id
            and mv.lot_id = level.lot_id and mv.created_at < ${end}
            order by mv.created_at desc limit 1) as on_hand
        from (
          select l.product_id, l.location_id, l.lot_id, loc.type as location_type
          from ${stockLevels} l
            join ${products} p on p.tenant_id = l.tenant_id and p.id = l.product_id
            join ${locations} loc on loc.tenant_id = l.tenant_id and loc.id = l.location_id
          where l.tenant_id = ${t} and p.merchant_id = ${merchantId}
          union all
          select d.product_id, d.location_id, d.lot_id, d.location_type
          from ${deletedStockLevels} d
          where d.tenant_id = ${t} and d.merchant_id = ${merchantId} and d.deleted_at >= ${end}
        ) level
      ) held
      where held.on_hand > 0
      group by held.location_type order by held.location_type
    ) by_type
    where true
    on conflict do nothing`;
}

/**
 * The cron trigger's daily storage snapshots: every merchant gets one per UTC day that has ended, from the day
 * after its last (or the day it was created) to yesterday. A day the job missed is taken late, from the ledger as
 * it stood then; a day taken is never taken again (the unique key), however often or concurrently this runs.
 */
export async function takeStorageSnapshots(env: Bindings, now = new Date()): Promise<number> {
  const yesterday = new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);
  const takenAt = now.toISOString();
  let taken = 0;
  for (const database of tenantDatabases(env)) {
    const lastDay = sql<string | null>`(select max(s.day) from ${snapshots} s
      where s.tenant_id = ${merchants.tenantId} and s.merchant_id = ${merchants.id})`;
    const due = await database
      .select({
        tenantId: merchants.tenantId,
        merchantId: merchants.id,
        createdAt: merchants.createdAt,
        lastDay,
      })
      .from(merchants)
      .where(
        sql`coalesce(${lastDay}, '') < ${yesterday} and substr(${merchants.createdAt}, 1, 10) <= ${yesterday}`,
      )
      .limit(SNAPSHOTS_PER_RUN);
    for (const merchant of due) {
      if (taken >= SNAPSHOTS_PER_RUN) return taken;
      const days: string[] = [];
      let day = merchant.lastDay ? dayAfter(merchant.lastDay) : merchant.createdAt.slice(0, 10);
      for (; day <= yesterday && taken + days.length < SNAPSHOTS_PER_RUN; day = dayAfter(day)) days.push(day);
      const tdb = await dbFor(env, merchant.tenantId);
      await runBatch(tdb, {
        snapshots: days.map((d) => snapshotStatement(tdb, merchant.merchantId, d, takenAt)),
      });
      taken += days.length;
    }
  }
  return taken;
}
