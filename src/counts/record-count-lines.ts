import { eq, sql } from "drizzle-orm";
import type { Actor } from "../auth/principal";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { inventoryCounts, locations, products } from "../db/schema/tenant";
import { inTenant, inTenantAmong } from "../db/tenant-scope";
import { validationError } from "../http/validation";
import { inBaseUnits, resolveLots, trackingProblems } from "../stock";

import { inStatus, serialsOnHand } from "./count-statements";
import { loadCount, refuse } from "./count-status";
import { readCount } from "./read-count";
import { type CountLinesBody, MAX_COUNT_LINES, MAX_COUNT_SERIALS } from "./schemas";

/**
 * `PUT /inventory/counts/{id}/lines`: records counted quantities (partial batches; the last value of a line
 * wins). Each line also records on hand at that moment, read in the same statement: the snapshot plus every
 * movement since, so a pick between the snapshot and the count is not a variance. A line outside the
 * snapshot (stock found where none was expected) must lie in the count's scope. A serial-tracked line names
 * every serial found (counted = their count) and records the serials on hand there at that moment too.
 */
export async function recordLines(tdb: TenantDb, actor: Actor, id: string, body: CountLinesBody) {
  const row = await loadCount(tdb, id);
  if (row.status !== "open") throw refuse(row, "counted");
  // Counted packs become units first (`counted` = packs x the packaging's size).
  const inUnits = await inBaseUnits(
    tdb,
    body.lines.map(({ counted, ...line }) => ({ ...line, quantity: counted })),
    (i) => `lines[${i}].`,
  );
  const input = { lines: inUnits.map(({ quantity, ...line }) => ({ ...line, counted: quantity })) };
  const productIds = [...new Set(input.lines.map((l) => l.productId))];
  const locationIds = [...new Set(input.lines.map((l) => l.locationId))];
  const read = await runBatch(tdb, {
    products: tdb.db
      .select({ id: products.id, sku: products.sku, tracking: products.tracking })
      .from(products)
      .where(inTenantAmong(tdb, products, productIds)),
    locations: tdb.db
      .select({ id: locations.id, warehouseId: locations.warehouseId })
      .from(locations)
      .where(inTenantAmong(tdb, locations, locationIds)),
  });
  const productOf = new Map(read.products.map((p) => [p.id, p]));
  const locationOf = new Map(read.locations.map((l) => [l.id, l]));
  const problems = input.lines.flatMap((line, i) => {
    const at = `lines[${i}]`;
    const product = productOf.get(line.productId);
    const location = locationOf.get(line.locationId);
    const issues: string[] = [];
    if (!product) issues.push(`${at}.productId: product ${line.productId} not found`);
    if (!location) issues.push(`${at}.locationId: location ${line.locationId} not found`);
    if (!product || !location) return issues;
    const inLocations = row.warehouseId
      ? location.warehouseId === row.warehouseId
      : (row.locationIds ?? []).includes(location.id);
    if (!inLocations) issues.push(`${at}.locationId: location ${location.id} is not in this count`);
    if (row.productIds && !row.productIds.includes(product.id)) {
      issues.push(`${at}.productId: product ${product.sku} is not in this count`);
    }
    issues.push(...trackingProblems(product, line, line.counted, `${at}.`));
    return issues;
  });
  if (problems.length) throw validationError(problems);
  const lotOf = await resolveLots(
    tdb,
    input.lines.flatMap((line, i) =>
      line.lotNumber === undefined
        ? []
        : [
            {
              productId: line.productId,
              sku: productOf.get(line.productId)?.sku ?? "",
              lotNumber: line.lotNumber,
              field: `lines[${i}].`,
            },
          ],
    ),
    "take",
  );
  const now = new Date().toISOString();
  const rows = input.lines.map((line) => ({
    p: line.productId,
    l: line.locationId,
    lot: line.lotNumber === undefined ? "" : lotOf(line.productId, line.lotNumber),
    w: locationOf.get(line.locationId)?.warehouseId,
    c: line.counted,
    s: line.serialNumbers ?? null,
  }));
  // One row per line, the last value winning (as the upsert would), so the bounds count each line once.
  const lines = JSON.stringify([...new Map(rows.map((r) => [`${r.p}|${r.l}|${r.lot}`, r])).values()]);
  const open = inStatus(tdb, id, "open");
  // The count with these lines recorded stays within its bounds: checked inside both writes, so two
  // concurrent batches cannot together take it past them.
  const withinBounds = sql`(select count(*) from (select product_id, location_id, lot_id from inventory_count_lines
        where tenant_id = ${tdb.tenantId} and count_id = ${id}
      union select value ->> 'p', value ->> 'l', value ->> 'lot' from json_each(${lines}))) <= ${MAX_COUNT_LINES}
    and (select coalesce(sum(json_array_length(c.counted_serials)), 0) from inventory_count_lines c
        where c.tenant_id = ${tdb.tenantId} and c.count_id = ${id} and (c.product_id, c.location_id, c.lot_id)
          not in (select value ->> 'p', value ->> 'l', value ->> 'lot' from json_each(${lines})))
      + (select coalesce(sum(json_array_length(value, '$.s')), 0) from json_each(${lines})) <= ${MAX_COUNT_SERIALS}`;
  const written = await runBatch(tdb, {
    lines: sql`insert into inventory_count_lines (tenant_id, count_id, product_id, location_id, lot_id, warehouse_id,
        expected, counted, on_hand_at_count, counted_at, counted_by, counted_serials, serials_at_count)
      select ${tdb.tenantId}, ${id}, json_extract(j.value, '$.p'), json_extract(j.value, '$.l'),
        json_extract(j.value, '$.lot'), json_extract(j.value, '$.w'), 0, json_extract(j.value, '$.c'),
        coalesce((select s.on_hand from stock_levels s where s.tenant_id = ${tdb.tenantId}
          and s.product_id = json_extract(j.value, '$.p') and s.location_id = json_extract(j.value, '$.l')
          and s.lot_id = json_extract(j.value, '$.lot')), 0),
        ${now}, ${actor.actorId}, json_extract(j.value, '$.s'),
        case when json_extract(j.value, '$.s') is not null then (${serialsOnHand(sql`${tdb.tenantId}`, sql`json_extract(j.value, '$.p')`, sql`json_extract(j.value, '$.l')`)}) end
      from json_each(${lines}) j where ${open} and ${withinBounds}
      on conflict (tenant_id, count_id, product_id, location_id, lot_id) do update set counted = excluded.counted,
        on_hand_at_count = excluded.on_hand_at_count, counted_at = excluded.counted_at, counted_by = excluded.counted_by,
        counted_serials = excluded.counted_serials, serials_at_count = excluded.serials_at_count`,
    touched: tdb.db
      .update(inventoryCounts)
      .set({ updatedAt: now })
      .where(
        inTenant(
          tdb,
          inventoryCounts,
          eq(inventoryCounts.id, id),
          eq(inventoryCounts.status, "open"),
          withinBounds,
        ),
      ),
  });
  if (changesOf(written.touched) === 0) {
    const current = await loadCount(tdb, id);
    if (current.status !== "open") throw refuse(current, "counted");
    throw validationError([
      `lines: a count holds at most ${MAX_COUNT_LINES} lines and ${MAX_COUNT_SERIALS} counted serial numbers; these lines would take it past that (count the rest in another count)`,
    ]);
  }
  return readCount(tdb, id);
}
