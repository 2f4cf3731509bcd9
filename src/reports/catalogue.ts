import type { Scope } from "../auth/scopes";
import { MAX_RANGE_DAYS } from "./date-range";

interface Parameter {
  name: string;
  required: boolean;
  description: string;
}

export interface ReportType {
  type: string;
  title: string;
  description: string;
  /** Every one is needed: unit costs and values are product data, so the valuation also needs `read:products`. */
  scopes: readonly [Scope, ...Scope[]];
  parameters: Parameter[];
}

const format: Parameter = {
  name: "format",
  required: false,
  description: "json (default: the envelope, paged) or csv (a streamed download of every row)",
};
const paging: Parameter[] = [
  { name: "page", required: false, description: "JSON page, >= 1 (default 1)" },
  { name: "pageSize", required: false, description: "JSON rows per page, 1..100 (default 20)" },
];
const range: Parameter[] = [
  { name: "from", required: true, description: "start: a UTC date (YYYY-MM-DD) or an ISO 8601 date-time" },
  {
    name: "to",
    required: true,
    description: `end, inclusive: a UTC date or an ISO 8601 date-time; at most ${MAX_RANGE_DAYS} days after from`,
  },
];
const stockFilters: Parameter[] = [
  { name: "warehouseId", required: false, description: "only this warehouse" },
  { name: "category", required: false, description: "only products in this category" },
];

/** Every report: the source of `GET /reports` and of each report route's scope and description. */
export const reportTypes = {
  inventoryValuation: {
    type: "inventory-valuation",
    title: "Inventory valuation",
    description:
      "On hand x unit cost for every product in every warehouse holding it, with totals (units on hand, reserved and available, value) per warehouse and overall.",
    scopes: ["read:inventory", "read:products"],
    parameters: [format, ...paging, ...stockFilters],
  },
  stockMovements: {
    type: "stock-movements",
    title: "Stock movements",
    description:
      "The stock ledger between two dates, oldest first, with its count and net change, overall and per UTC day.",
    scopes: ["read:inventory"],
    parameters: [
      format,
      ...paging,
      ...range,
      { name: "productId", required: false, description: "only this product" },
      { name: "locationId", required: false, description: "only this location" },
      { name: "warehouseId", required: false, description: "only this warehouse" },
      { name: "reason", required: false, description: "only this reason, e.g. received" },
    ],
  },
  lowStock: {
    type: "low-stock",
    title: "Low stock",
    description:
      "Active products whose available quantity in a warehouse is at or below their reorder point, with the shortfall.",
    scopes: ["read:inventory"],
    parameters: [format, ...paging, ...stockFilters],
  },
  orderSummary: {
    type: "order-summary",
    title: "Order summary",
    description:
      "Orders created between two dates: count and value per UTC day, type and current status, with totals per status.",
    scopes: ["read:orders"],
    parameters: [
      format,
      ...paging,
      ...range,
      { name: "type", required: false, description: "sales or purchase" },
    ],
  },
} as const satisfies Record<string, ReportType>;

export const reportPath = (type: string) => `/reports/${type}`;
