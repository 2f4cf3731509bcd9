import { csvFormat } from "d3-dsv";
import { ApiError, api, type Schemas, unwrap } from "../api/client";
import { saveBlob } from "../ui/download";

type Level = Schemas["StockLevel"];

/** The Stock page's filters as its URL holds them (empty: not filtered). */
export interface StockFilters {
  warehouseId: string;
  locationId: string;
  search: string;
  lotNumber: string;
  sellable: string;
  low: string;
}

/** The `GET /inventory/stock` query of the page's filters: the list and its CSV ask the same. */
export const stockQuery = (f: StockFilters) => ({
  ...(f.warehouseId && { warehouseId: f.warehouseId }),
  ...(f.locationId && { locationId: f.locationId }),
  ...(f.search && { search: f.search }),
  ...(f.lotNumber && { lotNumber: f.lotNumber }),
  ...(f.sellable && { sellable: f.sellable as "true" | "false" }),
  ...(f.low && { belowReorderPoint: "true" as const }),
});

// 50 requests of 100 levels: well inside a minute's rate limit. Past it the valuation report's CSV (per product and
// warehouse) or narrower filters serve better than a browser holding the whole list.
const MOST_LEVELS = 5_000;
const PAGE = 100;

/**
 * Saves `stock.csv`: every level the filters show (all pages, in the list's order), one row each with the list's
 * columns. Read page by page from the same endpoint as the list, so it is exactly what the page shows.
 */
export async function downloadStockCsv(filters: StockFilters, warehouseCode: (id: string) => string) {
  const query = stockQuery(filters);
  const levels: Level[] = [];
  for (let page = 1; ; page++) {
    const list = await unwrap(
      api.GET("/api/v1/inventory/stock", { params: { query: { ...query, page, pageSize: PAGE } } }),
    );
    if (list.totalCount > MOST_LEVELS)
      throw new ApiError(
        `${list.totalCount} levels match: narrow the filters to at most ${MOST_LEVELS} for a download, or use the inventory valuation report's CSV.`,
        400,
      );
    for (const level of list.items) if ("reserved" in level) levels.push(level);
    if (page * PAGE >= list.totalCount) break;
  }
  const csv = csvFormat(
    levels.map((l) => ({
      sku: l.sku,
      product: l.productName,
      warehouse: warehouseCode(l.warehouseId),
      location: l.locationCode,
      lot: l.lotNumber ?? "",
      expiresAt: l.expiresAt ?? "",
      sellable: l.sellable ? "yes" : "no",
      onHand: l.onHand,
      reserved: l.reserved,
      available: l.available,
    })),
  );
  saveBlob(new Blob([csv], { type: "text/csv" }), "stock.csv");
}
