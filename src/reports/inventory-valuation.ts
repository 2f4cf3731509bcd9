import { asc, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import type { CsvColumn } from "../http/csv-stream";
import { type ExactNumber, exactMoneyWithText, fromE4OrNull, MONEY_E4_BITS } from "../money";
import { reportTypes } from "./catalogue";
import { exactSumOfProducts } from "./exact-sum";
import type { InventoryValuationQuery } from "./schemas";
import { type PositionSums, positionReport, type StockPosition } from "./stock-position";

// A stock position as a value line shows it, priced.
export type ValuationLine = Omit<StockPosition, "costE4" | "reserved" | "reorderPoint"> & {
  unitCost: number | null;
  value: ExactNumber | null;
  sellableValue: ExactNumber | null;
  nonSellableValue: ExactNumber | null;
};

// A product with nothing on hand in a warehouse has no value there: it is not a line of the report.
const valuation = { having: (sums: PositionSums) => sql`${sums.onHand} > 0` };

/** A value that is null when the product has no cost. */
const valueOrNull = <N extends string>(name: N, units: number, costE4: number | null) =>
  costE4 === null
    ? ({ [name]: null, [`${name}Exact`]: null } as Record<N | `${N}Exact`, null>)
    : exactMoneyWithText(name, BigInt(units) * BigInt(costE4));

// `reserved` only feeds the totals: a line is about value. Stock at non-sellable locations (quarantine) is
// valued apart: `value` is everything on hand, `sellableValue` + `nonSellableValue` split it.
function toLine(position: StockPosition): ValuationLine {
  const { costE4, reserved: _reserved, reorderPoint: _reorderPoint, ...line } = position;
  return {
    ...line,
    unitCost: fromE4OrNull(costE4),
    ...valueOrNull("value", line.onHand, costE4),
    ...valueOrNull("sellableValue", line.onHand - line.nonSellable, costE4),
    ...valueOrNull("nonSellableValue", line.nonSellable, costE4),
  };
}

/** A total's value of everything on hand and its split between sellable and non-sellable stock. */
const values = (valueE4: bigint, nonSellableValueE4: bigint) => ({
  ...exactMoneyWithText("value", valueE4),
  ...exactMoneyWithText("sellableValue", valueE4 - nonSellableValueE4),
  ...exactMoneyWithText("nonSellableValue", nonSellableValueE4),
});

/** The report's reads: its JSON page (with the totals) and the pages of its CSV download. */
export const valuationLines = positionReport(valuation, toLine);

/**
 * A page of lines plus the totals per warehouse and overall: units on hand, reserved, expired and available
 * (only unexpired stock is available), and value of everything on hand (products without a cost add no value),
 * every value exact however large.
 */
export async function inventoryValuation(tenantDb: TenantDb, query: InventoryValuationQuery) {
  const { lines, byWarehouse } = await valuationLines.page(tenantDb, query, (all) => ({
    byWarehouse: tenantDb.db
      .select({
        warehouseId: all.warehouseId,
        warehouseCode: all.warehouseCode,
        onHand: sql<number>`sum(${all.onHand})`.mapWith(Number),
        reserved: sql<number>`sum(${all.reserved})`.mapWith(Number),
        expired: sql<number>`sum(${all.expired})`.mapWith(Number),
        nonSellable: sql<number>`sum(${all.nonSellable})`.mapWith(Number),
        valueE4: exactSumOfProducts(all.onHand, all.costE4, MONEY_E4_BITS),
        nonSellableValueE4: exactSumOfProducts(all.nonSellable, all.costE4, MONEY_E4_BITS),
      })
      .from(all)
      .groupBy(all.warehouseId)
      .orderBy(asc(all.warehouseCode)),
  }));
  const onHand = byWarehouse.reduce((sum, w) => sum + w.onHand, 0);
  const reserved = byWarehouse.reduce((sum, w) => sum + w.reserved, 0);
  const expired = byWarehouse.reduce((sum, w) => sum + w.expired, 0);
  const nonSellable = byWarehouse.reduce((sum, w) => sum + w.nonSellable, 0);
  const valueE4 = byWarehouse.reduce((sum, w) => sum + w.valueE4, 0n);
  const nonSellableValueE4 = byWarehouse.reduce((sum, w) => sum + w.nonSellableValueE4, 0n);
  return {
    ...lines,
    asOf: query.asOf ?? null,
    basis: query.asOf
      ? `Stock on hand at ${query.asOf} (from the ledger), valued at each product's current unit cost; ` +
        "reservations are not recorded for past instants, so reserved is 0"
      : "Stock on hand now, valued at each product's current unit cost",
    totals: {
      onHand,
      reserved,
      expired,
      nonSellable,
      available: onHand - reserved - expired - nonSellable,
      ...values(valueE4, nonSellableValueE4),
      byWarehouse: byWarehouse.map(({ valueE4, nonSellableValueE4, ...w }) => ({
        ...w,
        available: w.onHand - w.reserved - w.expired - w.nonSellable,
        ...values(valueE4, nonSellableValueE4),
      })),
    },
  };
}

export const valuationColumns: CsvColumn<ValuationLine>[] = [
  { header: "sku", cell: (r) => r.sku },
  { header: "productName", cell: (r) => r.productName },
  { header: "category", cell: (r) => r.category },
  { header: "warehouseCode", cell: (r) => r.warehouseCode },
  { header: "onHand", cell: (r) => r.onHand },
  { header: "expired", cell: (r) => r.expired },
  { header: "unitCost", cell: (r) => r.unitCost },
  { header: "value", cell: (r) => r.value },
  { header: "nonSellable", cell: (r) => r.nonSellable },
  { header: "sellableValue", cell: (r) => r.sellableValue },
  { header: "nonSellableValue", cell: (r) => r.nonSellableValue },
  { header: "productId", cell: (r) => r.productId },
  { header: "warehouseId", cell: (r) => r.warehouseId },
];

/** The report as `GET /reports/inventory-valuation` serves it (serve-report.ts). */
export const servedInventoryValuation = {
  type: reportTypes.inventoryValuation.type,
  json: inventoryValuation,
  columns: valuationColumns,
  csvPage: valuationLines.csvPage,
};
