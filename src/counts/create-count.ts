import { eq, gt, inArray, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { changesOf, onlyRow, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { locations, products, stockLevels, warehouses } from "../db/schema/tenant";
import { inTenant, tenantIdsAmong } from "../db/tenant-scope";
import { AppError, assertFound, conflict, missingAmong } from "../http/errors";
import { serialsOnHand } from "./count-statements";
import { type CountRow, countLinesQuery, countRecord } from "./records";
import { type CreateCountBody, MAX_COUNT_LINES, MAX_COUNT_SERIALS } from "./schemas";

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

/**
 * A merchant's count of a warehouse or of locations counts its own goods only: the products of its merchant with
 * stock on hand in that scope become the count's `productIds` (so the merchant reads the count, and only its
 * levels are snapshot and weigh against the size limit). None: 409, there is nothing of its own to count.
 */
async function ownGoodsInScope(tdb: TenantDb, input: CreateCountBody): Promise<string[]> {
  const inScope = input.warehouseId
    ? eq(stockLevels.warehouseId, input.warehouseId)
    : inArray(stockLevels.locationId, input.locationIds ?? []);
  const rows = await tdb.db
    .selectDistinct({ id: stockLevels.productId })
    .from(stockLevels)
    .where(inTenant(tdb, stockLevels, inScope, gt(stockLevels.onHand, 0)))
    .limit(MAX_COUNT_LINES + 1);
  if (rows.length === 0) {
    throw conflict("Nothing of this merchant's is on hand in this scope", [
      "productIds: no product of this merchant has stock in this scope; name productIds to count them",
    ]);
  }
  if (rows.length > MAX_COUNT_LINES) throw tooLarge({ lines: rows.length, serials: 0 });
  return rows.map((r) => r.id);
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
 * A scope beyond the count's bounds writes nothing (the guard is inside the batch) and is a 400. A merchant's
 * credential counts its own goods only (`ownGoodsInScope`).
 */
export async function createCount(tdb: TenantDb, actor: Actor, body: CreateCountBody) {
  await assertScope(tdb, body);
  const input =
    tdb.merchantId && !body.productIds ? { ...body, productIds: await ownGoodsInScope(tdb, body) } : body;
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
