import { asc, eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import {
  inventoryCountLines as cl,
  type inventoryCounts,
  locations,
  lots,
  products,
} from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { CountRecord } from "../record-schemas/count";
import { lotIdOf, withLot } from "../stock";

export type CountRow = typeof inventoryCounts.$inferSelect;

export function countSummary({ tenantId: _t, ...row }: CountRow) {
  return row;
}

/** A count's lines as the API shows them, by SKU, location code and lot. */
export const countLinesQuery = (tdb: TenantDb, countId: string) =>
  tdb.db
    .select({
      productId: cl.productId,
      sku: products.sku,
      locationId: cl.locationId,
      locationCode: locations.code,
      warehouseId: cl.warehouseId,
      lotId: lotIdOf(cl.lotId),
      lotNumber: lots.number,
      expected: cl.expected,
      counted: cl.counted,
      onHandAtCount: cl.onHandAtCount,
      countedAt: cl.countedAt,
      tracking: products.tracking,
      expectedSerials: cl.expectedSerials,
      countedSerials: cl.countedSerials,
      serialsAtCount: cl.serialsAtCount,
    })
    .from(cl)
    .innerJoin(products, inTenant(tdb, products, eq(products.id, cl.productId)))
    .innerJoin(locations, inTenant(tdb, locations, eq(locations.id, cl.locationId)))
    .leftJoin(lots, withLot(tdb, cl.lotId))
    .where(inTenant(tdb, cl, eq(cl.countId, countId)))
    .orderBy(asc(products.sku), asc(locations.code), asc(lots.number));

export type CountLineRow = Awaited<ReturnType<typeof countLinesQuery>>[number];

/** A line's variance: what was counted against what was on hand when it was counted. */
export const varianceOf = (line: Pick<CountLineRow, "counted" | "onHandAtCount">) =>
  line.counted === null ? null : line.counted - (line.onHandAtCount ?? 0);

const sorted = (serials: readonly string[]) => [...serials].sort();

/**
 * A serial-tracked line's variance by serial: those on hand there when it was counted but not found
 * (missing), and those found but not on hand there (found). Null for other lines and until counted.
 */
export function serialVariance(line: Pick<CountLineRow, "countedSerials" | "serialsAtCount">) {
  if (line.countedSerials === null) return null;
  const atCount = new Set(line.serialsAtCount ?? []);
  const counted = new Set(line.countedSerials);
  return {
    missing: sorted([...atCount].filter((s) => !counted.has(s))),
    found: sorted([...counted].filter((s) => !atCount.has(s))),
  };
}

function lineRecord(row: CountLineRow) {
  const { tracking, expectedSerials, countedSerials, serialsAtCount, ...line } = row;
  const serials = serialVariance(row);
  const serialTracked = tracking === "serial";
  return {
    ...line,
    variance: varianceOf(line),
    expectedSerials: serialTracked ? sorted(expectedSerials ?? []) : null,
    serialNumbers: countedSerials === null ? null : sorted(countedSerials),
    missingSerials: serials?.missing ?? null,
    foundSerials: serials?.found ?? null,
  };
}

export type CountLineRecord = ReturnType<typeof lineRecord>;

/** Whether approving the line changes stock: a variance, or serials swapped (as many missing as found). */
export const changesStock = (line: CountLineRecord) =>
  (line.variance ?? 0) !== 0 ||
  (line.missingSerials?.length ?? 0) > 0 ||
  (line.foundSerials?.length ?? 0) > 0;

export function countRecord(row: CountRow, lineRows: readonly CountLineRow[]): CountRecord {
  const lines = lineRows.map(lineRecord);
  const counted = lines.filter((l) => l.variance !== null);
  return {
    ...countSummary(row),
    lines,
    totals: {
      lines: lines.length,
      counted: counted.length,
      withVariance: counted.filter(changesStock).length,
      variance: counted.reduce((sum, l) => sum + (l.variance ?? 0), 0),
    },
  };
}
