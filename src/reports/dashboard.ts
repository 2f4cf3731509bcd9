import type { z } from "@hono/zod-openapi";
import type { TenantDb } from "../db/client";
import { inventoryValuation } from "./inventory-valuation";
import { lowStockReport } from "./low-stock";
import { orderSummary } from "./order-summary";
import type { Dashboard, DashboardQuery } from "./schemas";
import { stockMovementsReport } from "./stock-movements";

/**
 * `GET /dashboard`: the totals of four reports in one answer, so the web app's first page makes one request (each
 * request costs its own authentication and rate limit: four of them in parallel slowed each other). The reports
 * are read in parallel, each in its own batch (four D1 round trips), at the smallest page each allows; the
 * merchant rule applies as in each report (inTenant).
 */
export async function dashboard(tdb: TenantDb, query: DashboardQuery): Promise<z.input<typeof Dashboard>> {
  const first = { page: 1, pageSize: 1, format: "json" as const };
  const range = { ...first, from: query.from, to: query.to };
  const [valuation, low, movements, orders] = await Promise.all([
    inventoryValuation(tdb, first),
    lowStockReport(tdb, { ...first, pageSize: query.lowStockLimit }),
    stockMovementsReport(tdb, range),
    orderSummary(tdb, range),
  ]);
  return {
    stock: valuation.totals,
    lowStock: { items: low.items, totalCount: low.totalCount },
    movements: movements.totals,
    orders: orders.totals,
  };
}
