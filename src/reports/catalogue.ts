import type { Scope } from "../auth/scopes";

export interface ReportType {
  type: string;
  title: string;
  description: string;
  /** Every one is needed: unit costs and values are product data, so the valuation also needs `read:products`. */
  scopes: readonly [Scope, ...Scope[]];
}

/**
 * Every report: the source of each report route's path, scopes and description. `GET /reports` lists
 * them with the parameters of their routes' query schemas (routes.ts), so the catalogue and the
 * OpenAPI document cannot disagree.
 */
export const reportTypes = {
  inventoryValuation: {
    type: "inventory-valuation",
    title: "Inventory valuation",
    description:
      "On hand x unit cost for every product in every warehouse holding it, with totals (units on hand, reserved and available, value) per warehouse and overall.",
    scopes: ["read:inventory", "read:products"],
  },
  stockMovements: {
    type: "stock-movements",
    title: "Stock movements",
    description:
      "The stock ledger between two dates, oldest first, with its count and net change, overall and per UTC day.",
    scopes: ["read:inventory"],
  },
  lowStock: {
    type: "low-stock",
    title: "Low stock",
    description:
      "Active products whose available quantity in a warehouse is at or below their reorder point, with the shortfall.",
    scopes: ["read:inventory"],
  },
  orderSummary: {
    type: "order-summary",
    title: "Order summary",
    description:
      "Orders created between two dates: count and value per UTC day, type and current status, with totals per status.",
    scopes: ["read:orders"],
  },
  returns: {
    type: "returns",
    title: "Returns",
    description:
      "Units received back on returns between two dates, per reason and disposition (restock, quarantine, scrap), with the number of returns and totals per reason and per disposition.",
    scopes: ["read:orders"],
  },
} as const satisfies Record<string, ReportType>;

export const reportPath = (type: string) => `/reports/${type}`;
