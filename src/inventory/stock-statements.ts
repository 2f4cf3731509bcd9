import { and, asc, eq, exists, gt, inArray, or, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { stockLevels, stockMovements } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { selectMovements, selectStockLevels } from "./projections";

// The stock statements of adjustments, transfers and orders, run inside one D1 batch (see runBatch).
// A removal is never guarded in SQL on purpose: the stock_levels CHECKs (on_hand >= 0 and
// reserved <= on_hand) are the guard, and a violation rolls back the whole batch of the loser.

export interface Level {
  productId: string;
  locationId: string;
  /** The lot's id; absent (stored as '') for stock that is not lot-tracked. */
  lotId?: string;
}

/** The stored lot key of a level: '' for stock without a lot. */
export const lotKey = (l: Level) => l.lotId ?? "";

export interface LedgerContext {
  reason: string;
  referenceType: string | null;
  referenceId: string | null;
  notes: string | null;
  actorType: "user" | "api_key";
  actorId: string;
  requestId: string;
  now: string;
  /** The serial numbers the movement moved (serial-tracked products). */
  serialNumbers?: readonly string[] | null;
}

export const atLevel = (tdb: TenantDb, l: Level) =>
  inTenant(
    tdb,
    stockLevels,
    eq(stockLevels.productId, l.productId),
    eq(stockLevels.locationId, l.locationId),
    eq(stockLevels.lotId, lotKey(l)),
  );

/** Whether any level matching `where` holds stock (on hand or reserved): what blocks a deletion. */
export const holdsStock = (tdb: TenantDb, where: SQL) =>
  exists(
    tdb.db
      .select({ one: sql`1` })
      .from(stockLevels)
      .where(inTenant(tdb, stockLevels, where, or(gt(stockLevels.onHand, 0), gt(stockLevels.reserved, 0)))),
  );

/** Whether the level exists (inside a batch: after the statements before it). */
export const levelExists = (tdb: TenantDb, l: Level) =>
  exists(tdb.db.select({ one: sql`1` }).from(stockLevels).where(atLevel(tdb, l)));

/**
 * Adds stock, creating the level on first use (raw: an upsert guarded by `onlyIf`, which lets a transfer
 * add only when its source exists).
 */
export function addStock(
  tdb: TenantDb,
  l: Level & { warehouseId: string },
  quantity: number,
  now: string,
  onlyIf = sql`1`,
) {
  return sql`insert into stock_levels (tenant_id, product_id, location_id, lot_id, warehouse_id, on_hand, reserved, updated_at)
    select ${tdb.tenantId}, ${l.productId}, ${l.locationId}, ${lotKey(l)}, ${l.warehouseId}, ${quantity}, 0, ${now} where ${onlyIf}
    on conflict (tenant_id, product_id, location_id, lot_id)
    do update set on_hand = on_hand + excluded.on_hand, updated_at = excluded.updated_at`;
}

/** Moves an existing level's figures by the given amounts (0 rows changed when the level does not exist). */
export function changeLevel(
  tdb: TenantDb,
  l: Level,
  by: { onHand?: number; reserved?: number },
  now: string,
  onlyIf?: SQL,
) {
  return tdb.db
    .update(stockLevels)
    .set({
      ...(by.onHand ? { onHand: sql`${stockLevels.onHand} + ${by.onHand}` } : {}),
      ...(by.reserved ? { reserved: sql`${stockLevels.reserved} + ${by.reserved}` } : {}),
      updatedAt: now,
    })
    .where(and(atLevel(tdb, l), onlyIf));
}

/**
 * A ledger row's time: now, or 1 ms after the level's previous row if that is later (two isolates' clocks
 * differ), so per level created_at is strictly increasing in commit order and stock as of an instant is
 * the on_hand_after of the level's last row at or before it (stock-as-of.ts).
 */
const ledgerTime = (tdb: TenantDb, l: Level, now: string) =>
  sql`max(${now}, coalesce((select strftime('%Y-%m-%dT%H:%M:%fZ', max(m.created_at), '+0.001 seconds')
    from stock_movements m where m.tenant_id = ${tdb.tenantId} and m.product_id = ${l.productId}
    and m.location_id = ${l.locationId} and m.lot_id = ${lotKey(l)}), ''))`;

/**
 * The ledger row of a change already applied: on_hand_after is read from the level in the same batch
 * (raw: an insert from a select, guarded by `onlyIf`).
 */
export function ledgerRow(
  tdb: TenantDb,
  id: string,
  l: Level,
  delta: number,
  ctx: LedgerContext,
  onlyIf = sql`1`,
) {
  const serials = ctx.serialNumbers?.length ? JSON.stringify(ctx.serialNumbers) : null;
  return sql`insert into stock_movements (id, tenant_id, product_id, location_id, lot_id, serial_numbers, warehouse_id,
      delta, on_hand_after, reason, reference_type, reference_id, notes, actor_type, actor_id, request_id, created_at)
    select ${id}, tenant_id, product_id, location_id, lot_id, ${serials}, warehouse_id, ${delta}, on_hand, ${ctx.reason},
      ${ctx.referenceType}, ${ctx.referenceId}, ${ctx.notes}, ${ctx.actorType}, ${ctx.actorId}, ${ctx.requestId},
      ${ledgerTime(tdb, l, ctx.now)}
    from stock_levels where ${atLevel(tdb, l)} and ${onlyIf}`;
}

/** A level's figures as a JSON object, for event payloads built inside the batch. */
export const levelJson = (tdb: TenantDb, l: Level) =>
  sql`(select json_object('locationId', location_id, 'warehouseId', warehouse_id,
      'lotId', nullif(lot_id, ''), 'lotNumber', (select number from lots where lots.id = stock_levels.lot_id),
      'onHand', on_hand, 'reserved', reserved, 'available', on_hand - reserved)
    from stock_levels where ${atLevel(tdb, l)})`;

/** A level as the API shows it, read at the end of the write batch so it shows exactly what committed. */
export const levelSnapshot = (tdb: TenantDb, l: Level) =>
  selectStockLevels(
    tdb,
    eq(stockLevels.productId, l.productId),
    eq(stockLevels.locationId, l.locationId),
    eq(stockLevels.lotId, lotKey(l)),
  );

/** Ledger rows by id, as the API shows them. */
export const movementSnapshot = (tdb: TenantDb, ids: readonly string[]) =>
  selectMovements(tdb, inArray(stockMovements.id, [...ids])).orderBy(asc(stockMovements.id));
