import { type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { eventRow, previousStatementChanged } from "../outbox/outbox";
import { kitOfPickLine } from "./records";

// What a pick and a short share: the guard of their batch, the order's version bump, the reservation row
// they shrink, and the pick list's progress (in_progress, then completed with its event).

/** The pick list line a pick or a short is about (`id` is the line's). */
export interface LineRef {
  pickListId: string;
  id: string;
  orderId: string;
  orderLineId: string;
  productId: string;
  locationId: string;
  lotId: string;
}

/**
 * Every statement of a pick or a short holds only while the pick list is active, the line open and its
 * order still `picking` or `partially_shipped` (what was picked may ship before the rest is; a cancelled
 * order's lines take no more picks). The line's own update comes last,
 * so this guard is the same for every statement before it.
 */
export const pickGuard = (tdb: TenantDb, line: LineRef): SQL =>
  sql`exists (select 1 from pick_lists p join pick_list_lines l on l.pick_list_id = p.id
      join orders o on o.id = l.order_id
    where p.tenant_id = ${tdb.tenantId} and p.id = ${line.pickListId} and p.status in ('open', 'in_progress')
      and l.id = ${line.id} and l.status = 'open' and o.status in ('picking', 'partially_shipped'))`;

/**
 * Bumps the order's version: a status change that read the order before this pick moved its reservation
 * finds a newer version and changes nothing (409), so it never releases or ships a reservation that moved.
 * Picks of one order do not conflict with each other: the bump is unconditional.
 */
export const bumpOrderVersion = (tdb: TenantDb, line: LineRef, now: string, guard: SQL) =>
  sql`update orders set version = version + 1, updated_at = ${now}
    where tenant_id = ${tdb.tenantId} and id = ${line.orderId} and ${guard}`;

/** Shrinks the line's reservation at its bin by `quantity` (deleting the row when it reaches 0). */
export const shrinkBinReservation = (tdb: TenantDb, line: LineRef, quantity: number, guard: SQL) => {
  const at = sql`tenant_id = ${tdb.tenantId} and order_id = ${line.orderId} and line_id = ${line.orderLineId}
    and location_id = ${line.locationId} and lot_id = ${line.lotId}`;
  return [
    sql`delete from order_reservations where ${at} and quantity = ${quantity} and ${guard}`,
    // Less than the quantity left there fails the CHECK (quantity > 0): the stock level's CHECK would too.
    sql`update order_reservations set quantity = quantity - ${quantity} where ${at} and ${guard}`,
  ];
};

/** The line after the pick or short: its figures, and its status once nothing is left to pick. */
export const updateLine = (tdb: TenantDb, line: LineRef, by: { picked: number; short: number }, guard: SQL) =>
  sql`update pick_list_lines set picked_quantity = picked_quantity + ${by.picked},
      short_quantity = short_quantity + ${by.short},
      status = case when picked_quantity + short_quantity + ${by.picked + by.short} < quantity then 'open'
        when short_quantity + ${by.short} > 0 then 'short' else 'picked' end
    where tenant_id = ${tdb.tenantId} and id = ${line.id} and ${guard}`;

/** The pick list as the API shows it, built in SQL: what the batch committed, concurrent picks included. */
export const pickListJson = (tdb: TenantDb, pickListId: string) =>
  sql`(select json_object('id', p.id, 'warehouseId', p.warehouse_id, 'status', p.status,
      'orderIds', json(p.order_ids), 'createdAt', p.created_at, 'updatedAt', p.updated_at,
      'completedAt', p.completed_at, 'cancelledAt', p.cancelled_at,
      'lines', (select json_group_array(json(line)) from (select json_object('id', l.id, 'lineNo', l.line_no,
          'orderId', l.order_id, 'orderLineId', l.order_line_id, 'productId', l.product_id, 'sku', pr.sku,
          'locationId', l.location_id, 'locationCode', loc.code, 'lotNumber', lot.number,
          'quantity', l.quantity, 'pickedQuantity', l.picked_quantity, 'shortQuantity', l.short_quantity,
          'status', l.status,
          'kit', json(${kitOfPickLine(sql`l.tenant_id`, sql`l.order_id`, sql`l.order_line_id`)})) as line
        from pick_list_lines l join products pr on pr.id = l.product_id join locations loc on loc.id = l.location_id
          left join lots lot on lot.id = l.lot_id
        where l.tenant_id = p.tenant_id and l.pick_list_id = p.id order by l.line_no)))
    from pick_lists p where p.tenant_id = ${tdb.tenantId} and p.id = ${pickListId})`;

/**
 * After the line's update: the list is in progress, or completed once no line is open, with its
 * `pick_list.completed` event (written only by the batch that completed it).
 */
export function listProgress(tdb: TenantDb, pickListId: string, now: string) {
  const list = sql`tenant_id = ${tdb.tenantId} and id = ${pickListId}`;
  return [
    sql`update pick_lists set status = 'in_progress', updated_at = ${now} where ${list} and status = 'open'`,
    sql`update pick_lists set status = 'completed', completed_at = ${now}, updated_at = ${now}
      where ${list} and status in ('open', 'in_progress')
        and not exists (select 1 from pick_list_lines where tenant_id = ${tdb.tenantId}
          and pick_list_id = ${pickListId} and status = 'open')`,
    eventRow(tdb, "pick_list.completed", pickListJson(tdb, pickListId), now, {
      onlyIf: previousStatementChanged,
    }),
  ];
}
