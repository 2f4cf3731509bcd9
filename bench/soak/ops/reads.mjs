// Reads: list and search pages, single records, and report downloads (JSON and CSV).
import { pick } from "../random.mjs";

const READS = [
  (t) => t.client.products.list({ search: "Soak", pageSize: 20 }),
  (t) => t.client.products.get(pick(t.products)),
  (t) => t.client.inventory.listStock({ pageSize: 50 }),
  (t) => t.client.inventory.listMovements({ pageSize: 20 }),
  (t) => t.client.orders.list({ pageSize: 20 }),
  (t) => t.client.locations.listInventory(pick(t.locations)),
];

const REPORTS = [
  (t) => t.client.reports.inventoryValuationCsv(),
  (t) => t.client.reports.lowStock(),
  (t) => t.client.reports.lowStockCsv(),
  (t) => t.client.reports.inventoryValuation(),
];

export const read = {
  name: "read",
  weight: 30,
  run: (t) => t.track("read", () => pick(READS)(t)),
};

export const report = {
  name: "report",
  weight: 4,
  run: (t) => t.track("report", () => pick(REPORTS)(t)),
};
