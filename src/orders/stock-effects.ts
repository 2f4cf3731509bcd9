import { type SQL, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { TenantDb } from "../db/client";
import type { Reservation } from "./allocation";

// The stock side of order changes, as batch statements. Oversell is impossible because the
// stock_levels CHECKs (reserved <= on_hand, on_hand >= 0) fail the whole batch of a losing racer.

/** Who and what a ledger row points to. */
export interface MovementContext {
  orderId: string;
  actorType: "user" | "api_key";
  actorId: string;
  requestId: string;
  now: string;
}

type StockAmount = Pick<Reservation, "productId" | "locationId" | "quantity">;

const atLevel = (tdb: TenantDb, s: StockAmount) =>
  sql`tenant_id = ${tdb.tenantId} and product_id = ${s.productId} and location_id = ${s.locationId}`;

/** Holds stock for an order; unguarded on purpose: the reserved <= on_hand CHECK is the guard. */
export function reserveStock(tdb: TenantDb, s: StockAmount, now: string) {
  return sql`update stock_levels set reserved = reserved + ${s.quantity}, updated_at = ${now} where ${atLevel(tdb, s)}`;
}

/** Gives held stock back (cancellation). */
export function releaseStock(tdb: TenantDb, s: StockAmount, now: string, guard: SQL) {
  return sql`update stock_levels set reserved = reserved - ${s.quantity}, updated_at = ${now}
        where ${atLevel(tdb, s)} and ${guard}`;
}

/** The ledger row for a change already applied to the level: on_hand_after is read from the level itself. */
function movementAfter(
  tdb: TenantDb,
  s: StockAmount,
  delta: number,
  reason: string,
  ctx: MovementContext,
  guard: SQL,
) {
  return sql`insert into stock_movements (id, tenant_id, product_id, location_id, warehouse_id, delta, on_hand_after,
          reason, reference_type, reference_id, actor_type, actor_id, request_id, created_at)
        select ${uuidv7()}, tenant_id, product_id, location_id, warehouse_id, ${delta}, on_hand, ${reason}, 'order',
          ${ctx.orderId}, ${ctx.actorType}, ${ctx.actorId}, ${ctx.requestId}, ${ctx.now}
        from stock_levels where ${atLevel(tdb, s)} and ${guard}`;
}

/** Ships held stock: on_hand and reserved both go down, with a `shipped` ledger row. */
export function consumeStock(tdb: TenantDb, s: StockAmount, ctx: MovementContext, guard: SQL) {
  return [
    sql`update stock_levels set on_hand = on_hand - ${s.quantity}, reserved = reserved - ${s.quantity},
            updated_at = ${ctx.now} where ${atLevel(tdb, s)} and ${guard}`,
    movementAfter(tdb, s, -s.quantity, "shipped", ctx, guard),
  ] as const;
}

/** Adds received stock (creating the level on first receipt), with a `received` ledger row. */
export function receiveStock(
  tdb: TenantDb,
  s: StockAmount & { warehouseId: string },
  ctx: MovementContext,
  guard: SQL,
) {
  return [
    sql`insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, on_hand, reserved, updated_at)
          select ${tdb.tenantId}, ${s.productId}, ${s.locationId}, ${s.warehouseId}, ${s.quantity}, 0, ${ctx.now}
          where ${guard}
          on conflict (tenant_id, product_id, location_id)
          do update set on_hand = on_hand + excluded.on_hand, updated_at = excluded.updated_at`,
    movementAfter(tdb, s, s.quantity, "received", ctx, guard),
  ] as const;
}

/**
 * An `inventory.low_stock` outbox row, written only if this change took the product's available stock
 * (across all its locations) from above its reorder point to at or below it. Evaluated inside the
 * batch, so it sees exactly the committed figures. Returns the event id, to hand off if inserted.
 */
export function lowStockEvent(
  tdb: TenantDb,
  productId: string,
  drop: number,
  now: string,
  guard: SQL = sql`1`,
) {
  const id = uuidv7();
  const query = sql`insert into outbox_events (id, tenant_id, type, payload, created_at)
        select ${id}, p.tenant_id, 'inventory.low_stock',
          json_object('productId', p.id, 'sku', p.sku, 'name', p.name, 'reorderPoint', p.reorder_point,
            'onHand', t.on_hand, 'reserved', t.reserved, 'available', t.on_hand - t.reserved),
          ${now}
        from products p,
          (select coalesce(sum(on_hand), 0) as on_hand, coalesce(sum(reserved), 0) as reserved
             from stock_levels where tenant_id = ${tdb.tenantId} and product_id = ${productId}) t
        where p.tenant_id = ${tdb.tenantId} and p.id = ${productId}
          and t.on_hand - t.reserved <= p.reorder_point
          and t.on_hand - t.reserved + ${drop} > p.reorder_point
          and ${guard}`;
  return { id, query };
}
