import { eq, type SQL, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { changesOf, onlyRow, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { inventoryCounts, locations, products, warehouses } from "../db/schema/tenant";
import { inTenant, inTenantAmong, tenantIdsAmong } from "../db/tenant-scope";
import { AppError, assertFound, conflict, missingAmong } from "../http/errors";
import { validationError } from "../http/validation";
import { inBaseUnits } from "../stock/packs";
import { resolveLots, trackingProblems } from "../stock/tracked-stock";
import { type CountRow, countLinesQuery, countRecord, readCount } from "./read";
import { type CountLinesBody, type CreateCountBody, MAX_COUNT_LINES, MAX_COUNT_SERIALS } from "./schemas";

// A cycle count's life: open (snapshot taken, lines being counted) -> submitted (variances frozen) ->
// approved (variances written as adjustments, approve.ts) | cancelled. Every change is one batch guarded
// by the status it expects, so a late scanner batch never lands on a submitted count.

/** The count is still in `status` (inside a batch: as of the statement). */
export const inStatus = (tdb: TenantDb, countId: string, status: CountRow["status"]) =>
  sql`exists (select 1 from inventory_counts where tenant_id = ${tdb.tenantId} and id = ${countId} and status = ${status})`;

/** The serials of a product in stock at a location, as a JSON array (inside a statement). */
const serialsOnHand = (tenantId: SQL, productId: SQL, locationId: SQL) =>
  sql`select json_group_array(sn.serial) from serial_numbers sn where sn.tenant_id = ${tenantId}
    and sn.product_id = ${productId} and sn.location_id = ${locationId} and sn.on_hand = 1`;

const refuse = (row: CountRow, action: string) =>
  conflict(`Inventory count ${row.id} is ${row.status}; it cannot be ${action}`);

/** 404 naming every warehouse, location or product of the scope the tenant does not have. */
async function assertScope(tdb: TenantDb, input: CreateCountBody) {
  const locationIds = input.locationIds ?? [];
  const productIds = input.productIds ?? [];
  const read = await runBatch(tdb, {
    warehouse: tenantIdsAmong(tdb, warehouses, input.warehouseId ? [input.warehouseId] : []),
    locations: tenantIdsAmong(tdb, locations, locationIds),
    products: tenantIdsAmong(tdb, products, productIds),
  });
  assertFound([
    ...missingAmong("warehouseId", "warehouse", input.warehouseId ? [input.warehouseId] : [], read.warehouse),
    ...missingAmong("locationIds", "location", locationIds, read.locations),
    ...missingAmong("productIds", "product", productIds, read.products),
  ]);
}

const asJson = (value: readonly string[] | null) => (value === null ? null : JSON.stringify(value));

/** 400 for a scope larger than a count holds, with its figures and how to narrow it. */
function tooLarge(size: { lines: number; serials: number }) {
  const problems = [
    ...(size.lines > MAX_COUNT_LINES
      ? [`this scope has ${size.lines} levels with stock; a count holds at most ${MAX_COUNT_LINES} lines`]
      : []),
    ...(size.serials > MAX_COUNT_SERIALS
      ? [`this scope has ${size.serials} serial numbers on hand; a count lists at most ${MAX_COUNT_SERIALS}`]
      : []),
  ];
  return new AppError(
    "VALIDATION_FAILED",
    "This count would be too large: narrow it with productIds or fewer locationIds, and count the rest in further counts",
    { errors: problems },
  );
}

/**
 * `POST /inventory/counts`: the count and its snapshot (on hand per product, location and lot in scope) in
 * one batch, so the snapshot is one consistent moment; a serial-tracked product's line also lists its serials
 * there. Levels with nothing on hand have nothing to count (a counter reports found stock as a new line).
 * A scope beyond the count's bounds writes nothing (the guard is inside the batch) and is a 400.
 */
export async function createCount(tdb: TenantDb, actor: Actor, input: CreateCountBody) {
  await assertScope(tdb, input);
  const id = uuidv7();
  const now = new Date().toISOString();
  // `s` is a stock level or a serial number: both have the tenant, product, location and warehouse.
  const inScope = input.warehouseId
    ? sql`s.warehouse_id = ${input.warehouseId}`
    : sql`s.location_id in (select value from json_each(${JSON.stringify(input.locationIds ?? [])}))`;
  const ofProducts = input.productIds
    ? sql`and s.product_id in (select value from json_each(${JSON.stringify(input.productIds)}))`
    : sql``;
  const linesInScope = sql`(select count(*) from stock_levels s
    where s.tenant_id = ${tdb.tenantId} and ${inScope} ${ofProducts} and s.on_hand > 0)`;
  const serialsInScope = sql`(select count(*) from serial_numbers s
    where s.tenant_id = ${tdb.tenantId} and ${inScope} ${ofProducts} and s.on_hand = 1)`;
  const fits = sql`${linesInScope} <= ${MAX_COUNT_LINES} and ${serialsInScope} <= ${MAX_COUNT_SERIALS}`;
  const row: CountRow = {
    id,
    tenantId: tdb.tenantId,
    status: "open",
    warehouseId: input.warehouseId ?? null,
    locationIds: input.locationIds ?? null,
    productIds: input.productIds ?? null,
    createdBy: actor.actorId,
    approvedBy: null,
    createdAt: now,
    submittedAt: null,
    approvedAt: null,
    cancelledAt: null,
    updatedAt: now,
  };
  const written = await runBatch(tdb, {
    size: sql`select ${linesInScope} as lines, ${serialsInScope} as serials`,
    count: sql`insert into inventory_counts (id, tenant_id, status, warehouse_id, location_ids, product_ids, created_by,
        created_at, updated_at)
      select ${id}, ${tdb.tenantId}, 'open', ${row.warehouseId}, ${asJson(row.locationIds)}, ${asJson(row.productIds)},
        ${row.createdBy}, ${now}, ${now} where ${fits}`,
    snapshot: sql`insert into inventory_count_lines (tenant_id, count_id, product_id, location_id, lot_id, warehouse_id, expected,
        expected_serials)
      select s.tenant_id, ${id}, s.product_id, s.location_id, s.lot_id, s.warehouse_id, s.on_hand,
        case when p.tracking = 'serial' then (${serialsOnHand(sql`s.tenant_id`, sql`s.product_id`, sql`s.location_id`)}) end
      from stock_levels s join products p on p.tenant_id = s.tenant_id and p.id = s.product_id
      where s.tenant_id = ${tdb.tenantId} and ${inScope} ${ofProducts} and s.on_hand > 0
        and exists (select 1 from inventory_counts c where c.tenant_id = ${tdb.tenantId} and c.id = ${id})`,
    lines: countLinesQuery(tdb, id),
  });
  if (changesOf(written.count) === 0) {
    throw tooLarge(onlyRow(written.size.results as { lines: number; serials: number }[]));
  }
  return countRecord(row, written.lines);
}

async function loadCount(tdb: TenantDb, id: string) {
  const [row] = await tdb.db
    .select()
    .from(inventoryCounts)
    .where(inTenant(tdb, inventoryCounts, eq(inventoryCounts.id, id)));
  if (!row) throw new AppError("NOT_FOUND", "Inventory count not found");
  return row;
}

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

/**
 * Moves a count from one of `from` to `to` (submit, cancel), guarded by its status; asking again once it is
 * there answers the count as it is (idempotent), any other status is 409.
 */
export async function moveCount(
  tdb: TenantDb,
  id: string,
  from: readonly CountRow["status"][],
  to: "submitted" | "cancelled",
) {
  const row = await loadCount(tdb, id);
  if (row.status === to) return readCount(tdb, id);
  if (!from.includes(row.status)) throw refuse(row, to);
  const now = new Date().toISOString();
  const stamp = to === "submitted" ? { submittedAt: now } : { cancelledAt: now };
  const written = await runBatch(tdb, {
    moved: tdb.db
      .update(inventoryCounts)
      .set({ status: to, updatedAt: now, ...stamp })
      .where(
        inTenant(tdb, inventoryCounts, eq(inventoryCounts.id, id), eq(inventoryCounts.status, row.status)),
      ),
  });
  if (changesOf(written.moved) === 0) return moveCount(tdb, id, from, to);
  return readCount(tdb, id);
}
