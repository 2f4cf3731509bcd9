import { count, eq, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { newestFirst, readPage } from "../db/pages";
import { pickLists } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import type { ListPickListsQuery } from "./schemas";

/** Pick lists, newest first, with their totals; filtered by status, warehouse or an order on them. */
export function listPickLists(tdb: TenantDb, query: ListPickListsQuery) {
  const where = inTenant(
    tdb,
    pickLists,
    query.status ? eq(pickLists.status, query.status) : undefined,
    query.warehouseId ? eq(pickLists.warehouseId, query.warehouseId) : undefined,
    query.orderId
      ? sql`exists (select 1 from pick_list_lines l where l.tenant_id = pick_lists.tenant_id
          and l.pick_list_id = pick_lists.id and l.order_id = ${query.orderId})`
      : undefined,
  );
  // Written out with the outer table's name: drizzle leaves a one-table select's columns unqualified.
  const ofList = (expression: string) =>
    sql<number>`(select ${sql.raw(expression)} from pick_list_lines l
      where l.tenant_id = pick_lists.tenant_id and l.pick_list_id = pick_lists.id)`;
  return readPage(
    tdb,
    query,
    {
      rows: tdb.db
        .select({
          row: pickLists,
          lines: ofList("count(*)"),
          quantity: ofList("coalesce(sum(l.quantity), 0)"),
          pickedQuantity: ofList("coalesce(sum(l.picked_quantity), 0)"),
          shortQuantity: ofList("coalesce(sum(l.short_quantity), 0)"),
        })
        .from(pickLists)
        .where(where),
      order: newestFirst(pickLists),
      count: tdb.db.select({ value: count() }).from(pickLists).where(where),
    },
    ({ row: { tenantId: _t, createdBy: _by, ...row }, ...totals }) => ({ ...row, totals }),
  );
}
