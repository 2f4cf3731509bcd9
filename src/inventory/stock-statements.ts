import { sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";

// Raw statements shared by adjustments and transfers, run inside one D1 batch (see runBatch).
// Removal is never guarded in SQL on purpose: the stock_levels CHECKs (on_hand >= 0 and
// reserved <= on_hand) are the guard, and a violation rolls back the whole batch of the loser.

export interface Level {
  productId: string;
  locationId: string;
}

export interface LedgerContext {
  reason: string;
  referenceType: string | null;
  referenceId: string | null;
  notes: string | null;
  actorType: "user" | "api_key";
  actorId: string;
  requestId: string;
  now: string;
}

export const atLevel = (tdb: TenantDb, l: Level) =>
  sql`tenant_id = ${tdb.tenantId} and product_id = ${l.productId} and location_id = ${l.locationId}`;

/** Adds stock, creating the level on first use. `onlyIf` lets a transfer add only when its source exists. */
export function addStock(
  tdb: TenantDb,
  l: Level & { warehouseId: string },
  quantity: number,
  now: string,
  onlyIf = sql`1`,
) {
  return sql`insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, on_hand, reserved, updated_at)
    select ${tdb.tenantId}, ${l.productId}, ${l.locationId}, ${l.warehouseId}, ${quantity}, 0, ${now} where ${onlyIf}
    on conflict (tenant_id, product_id, location_id)
    do update set on_hand = on_hand + excluded.on_hand, updated_at = excluded.updated_at`;
}

/** Removes stock from an existing level (0 rows changed when the level does not exist). */
export function removeStock(tdb: TenantDb, l: Level, quantity: number, now: string) {
  return sql`update stock_levels set on_hand = on_hand - ${quantity}, updated_at = ${now} where ${atLevel(tdb, l)}`;
}

/** The ledger row of a change already applied: on_hand_after is read from the level in the same batch. */
export function ledgerRow(
  tdb: TenantDb,
  id: string,
  l: Level,
  delta: number,
  ctx: LedgerContext,
  onlyIf = sql`1`,
) {
  return sql`insert into stock_movements (id, tenant_id, product_id, location_id, warehouse_id, delta, on_hand_after,
      reason, reference_type, reference_id, notes, actor_type, actor_id, request_id, created_at)
    select ${id}, tenant_id, product_id, location_id, warehouse_id, ${delta}, on_hand, ${ctx.reason},
      ${ctx.referenceType}, ${ctx.referenceId}, ${ctx.notes}, ${ctx.actorType}, ${ctx.actorId}, ${ctx.requestId}, ${ctx.now}
    from stock_levels where ${atLevel(tdb, l)} and ${onlyIf}`;
}

/** A level's figures as a JSON object, for event payloads built inside the batch. */
export const levelJson = (tdb: TenantDb, l: Level) =>
  sql`(select json_object('locationId', location_id, 'warehouseId', warehouse_id, 'onHand', on_hand,
      'reserved', reserved, 'available', on_hand - reserved) from stock_levels where ${atLevel(tdb, l)})`;

/** A level as the API shows it, read at the end of the write batch so it shows exactly what committed. */
export function levelSnapshot(tdb: TenantDb, l: Level) {
  return sql`select s.product_id as productId, p.sku as sku, p.name as productName, s.location_id as locationId,
      c.code as locationCode, s.warehouse_id as warehouseId, s.on_hand as onHand, s.reserved as reserved,
      s.on_hand - s.reserved as available, s.updated_at as updatedAt
    from stock_levels s
    join products p on p.tenant_id = s.tenant_id and p.id = s.product_id
    join locations c on c.tenant_id = s.tenant_id and c.id = s.location_id
    where s.tenant_id = ${tdb.tenantId} and s.product_id = ${l.productId} and s.location_id = ${l.locationId}`;
}

/** Ledger rows by id, as the API shows them. */
export function movementSnapshot(tdb: TenantDb, ids: readonly string[]) {
  return sql`select id, product_id as productId, location_id as locationId, warehouse_id as warehouseId, delta,
      on_hand_after as onHandAfter, reason, reference_type as referenceType, reference_id as referenceId, notes,
      actor_type as actorType, actor_id as actorId, request_id as requestId, created_at as createdAt
    from stock_movements where tenant_id = ${tdb.tenantId} and id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}) order by id`;
}
