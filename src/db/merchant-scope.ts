import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import {
  inventoryCounts,
  jobs,
  merchants,
  orders,
  pickLists,
  products,
  shipments,
  webhookSubscriptions,
} from "./schema/tenant";

// Merchant-scoped access (docs/decisions/merchants.md): a handle carrying a merchant reads and writes only that
// merchant's rows. `inTenant` adds this condition to every query of a tenant table, so no handler states it. A
// table's rows are the merchant's by the first of these it has:
// - its own merchant column (products, orders, outbox events, webhook subscriptions), or the merchant itself;
// - a product: stock levels, lots, serial numbers, movements, holds, order lines and reservations, pick list
//   and package lines, count lines;
// - an order: shipments, status histories; a shipment: packages; a subscription: its deliveries;
// - pick lists (and their picks) and counts whose every order or product is the merchant's; no job;
// every other table (warehouses, locations, settings, counters) is the tenant's, shared by its merchants.

/** A handle's tenant, and its merchant when it acts for one. */
export interface Scope {
  readonly tenantId: string;
  readonly merchantId?: string;
}

type ScopedColumns = Partial<
  Record<
    "merchantId" | "productId" | "orderId" | "shipmentId" | "pickListId" | "subscriptionId",
    SQLiteColumn
  >
>;

const merchantProducts = (tenantId: string, merchantId: string) =>
  sql`select ${products.id} from ${products} where ${products.tenantId} = ${tenantId} and ${products.merchantId} = ${merchantId}`;

const merchantOrders = (tenantId: string, merchantId: string) =>
  sql`select ${orders.id} from ${orders} where ${orders.tenantId} = ${tenantId} and ${orders.merchantId} = ${merchantId}`;

/** Every id of a JSON array column is among `ids`, and there is one. */
const allAmong = (column: SQLiteColumn, ids: SQL) =>
  sql`(json_array_length(${column}) > 0 and not exists (select 1 from json_each(${column}) where value not in (${ids})))`;

/** The condition limiting `table` to the scope's merchant; undefined for a handle of the whole tenant. */
export function merchantCondition({ tenantId, merchantId }: Scope, table: object): SQL | undefined {
  if (merchantId === undefined) return undefined;
  const columns = table as ScopedColumns;
  const ownOrders = () => merchantOrders(tenantId, merchantId);
  if (table === merchants) return sql`${merchants.id} = ${merchantId}`;
  if (columns.merchantId) return sql`${columns.merchantId} = ${merchantId}`;
  if (columns.productId) return sql`${columns.productId} in (${merchantProducts(tenantId, merchantId)})`;
  if (columns.orderId) return sql`${columns.orderId} in (${ownOrders()})`;
  if (columns.shipmentId) {
    return sql`${columns.shipmentId} in (select ${shipments.id} from ${shipments} where ${shipments.tenantId} = ${tenantId} and ${shipments.orderId} in (${ownOrders()}))`;
  }
  if (table === pickLists) return allAmong(pickLists.orderIds, ownOrders());
  if (columns.pickListId) {
    return sql`${columns.pickListId} in (select ${pickLists.id} from ${pickLists} where ${pickLists.tenantId} = ${tenantId} and ${allAmong(pickLists.orderIds, ownOrders())})`;
  }
  if (columns.subscriptionId) {
    return sql`${columns.subscriptionId} in (select ${webhookSubscriptions.id} from ${webhookSubscriptions} where ${webhookSubscriptions.tenantId} = ${tenantId} and ${webhookSubscriptions.merchantId} = ${merchantId})`;
  }
  // Imports and exports run for the whole tenant: a merchant-scoped credential neither starts nor sees one.
  if (table === jobs) return sql`0`;
  if (table === inventoryCounts) {
    return allAmong(inventoryCounts.productIds, merchantProducts(tenantId, merchantId));
  }
  return undefined;
}
