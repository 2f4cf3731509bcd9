import { and, asc, eq, exists, gt, inArray, or, type SQL, sql } from "drizzle-orm";
import { jsonChunks } from "../db/batch";
import type { TenantDb } from "../db/client";
import { compiled } from "../db/compiled";
import { insertSelect } from "../db/insert-select";
import { locations, stockLevels, stockMovements } from "../db/schema/tenant";
import { inTenant, tenantRows } from "../db/tenant-scope";
import type { MovementReason } from "./ledger-reasons";
import { selectMovements, selectStockLevels } from "./projections";
import { sellableUnits } from "./sellable";

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
  reason: MovementReason;
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
  exists(tenantRows(tdb, stockLevels, where, or(gt(stockLevels.onHand, 0), gt(stockLevels.reserved, 0))));

/** Whether the level exists (inside a batch: after the statements before it). */
export const levelExists = (tdb: TenantDb, l: Level) =>
  exists(tdb.db.select({ one: sql`1` }).from(stockLevels).where(atLevel(tdb, l)));

/** A location's warehouse, read inside the batch (a write that has not read its location). */
export const warehouseOfLocation = (tdb: TenantDb, locationId: string) =>
  sql`(${tdb.db
    .select({ warehouseId: locations.warehouseId })
    .from(locations)
    .where(inTenant(tdb, locations, eq(locations.id, locationId)))})`;

/** The one insert of levels: the rows `source` selects, in the columns' order. */
const insertLevels = (source: SQL) =>
  sql`insert into stock_levels (tenant_id, product_id, location_id, lot_id, warehouse_id, on_hand, reserved, updated_at) ${source}`;

/** An addition's statement, the warehouse given or (null) read from the location in the batch. */
const addStockStatement = (
  tdb: TenantDb,
  l: { productId: string; locationId: string; lotId: string; warehouseId: string | null },
  quantity: number,
  now: string,
  onlyIf = sql`1`,
) =>
  sql`${insertLevels(sql`select ${tdb.tenantId}, ${l.productId}, ${l.locationId}, ${l.lotId}, ${l.warehouseId ?? warehouseOfLocation(tdb, l.locationId)}, ${quantity}, 0, ${now} where ${onlyIf}`)}
    on conflict (tenant_id, product_id, location_id, lot_id)
    do update set on_hand = on_hand + excluded.on_hand, updated_at = excluded.updated_at`;

const unguardedAddition = compiled(
  (
    tdb,
    v: {
      productId: string;
      locationId: string;
      lotId: string;
      warehouseId: string | null;
      quantity: number;
      now: string;
    },
    k: { readsWarehouse: boolean },
  ) =>
    addStockStatement(tdb, { ...v, warehouseId: k.readsWarehouse ? null : v.warehouseId }, v.quantity, v.now),
);

/**
 * Adds stock, creating the level on first use (raw: an upsert guarded by `onlyIf`, which lets a transfer
 * add only when its source exists); a null warehouse is read in the batch (a write that has not read its
 * location). Unguarded, it is compiled once (src/db/compiled.ts).
 */
export function addStock(
  tdb: TenantDb,
  l: Level & { warehouseId: string | null },
  quantity: number,
  now: string,
  onlyIf?: SQL,
) {
  const level = {
    productId: l.productId,
    locationId: l.locationId,
    lotId: lotKey(l),
    warehouseId: l.warehouseId,
  };
  return onlyIf
    ? addStockStatement(tdb, level, quantity, now, onlyIf)
    : unguardedAddition(tdb, { ...level, quantity, now }, { readsWarehouse: l.warehouseId === null });
}

/** A change of a level's figures by the given amounts (0 rows changed when the level does not exist). */
const changeLevelStatement = (
  tdb: TenantDb,
  l: Level,
  by: { onHand?: number; reserved?: number },
  now: string,
  onlyIf?: SQL,
) =>
  tdb.db
    .update(stockLevels)
    .set({
      ...(by.onHand ? { onHand: sql`${stockLevels.onHand} + ${by.onHand}` } : {}),
      ...(by.reserved ? { reserved: sql`${stockLevels.reserved} + ${by.reserved}` } : {}),
      updatedAt: now,
    })
    .where(and(atLevel(tdb, l), onlyIf));

const unguardedChange = compiled(
  (
    tdb,
    v: {
      productId: string;
      locationId: string;
      lotId: string;
      onHand: number;
      reserved: number;
      now: string;
    },
    k: { onHand: boolean; reserved: boolean },
  ) =>
    changeLevelStatement(
      tdb,
      v,
      { onHand: k.onHand ? v.onHand : 0, reserved: k.reserved ? v.reserved : 0 },
      v.now,
    ),
);

/**
 * Moves an existing level's figures by the given amounts (0 rows changed when the level does not exist).
 * Unguarded, it is compiled once (src/db/compiled.ts).
 */
export function changeLevel(
  tdb: TenantDb,
  l: Level,
  by: { onHand?: number; reserved?: number },
  now: string,
  onlyIf?: SQL,
) {
  if (onlyIf) return changeLevelStatement(tdb, l, by, now, onlyIf);
  const { onHand = 0, reserved = 0 } = by;
  return unguardedChange(
    tdb,
    { productId: l.productId, locationId: l.locationId, lotId: lotKey(l), onHand, reserved, now },
    { onHand: onHand !== 0, reserved: reserved !== 0 },
  );
}

/**
 * A ledger row's time: now, or 1 ms after the level's previous row if that is later (two isolates' clocks
 * differ), so per level created_at is strictly increasing in commit order and stock as of an instant is
 * the on_hand_after of the level's last row at or before it (as-of.ts).
 */
const ledgerTime = (
  tdb: TenantDb,
  l: { productId: unknown; locationId: unknown; lotId: unknown },
  now: string,
) =>
  sql`max(${now}, coalesce((select strftime('%Y-%m-%dT%H:%M:%fZ', max(m.created_at), '+0.001 seconds')
    from stock_movements m where m.tenant_id = ${tdb.tenantId} and m.product_id = ${l.productId}
    and m.location_id = ${l.locationId} and m.lot_id = ${l.lotId}), ''))`;

/** The ledger columns a change's context fills: why, on what reference, by whom. */
const ledgerContext = (ctx: Omit<LedgerContext, "serialNumbers">) => ({
  reason: ctx.reason,
  referenceType: ctx.referenceType,
  referenceId: ctx.referenceId,
  notes: ctx.notes,
  actorType: ctx.actorType,
  actorId: ctx.actorId,
  requestId: ctx.requestId,
});

/** A ledger row's values as stored: the level (its lot key), the change and its context. */
type LedgerValues = Omit<LedgerContext, "serialNumbers"> & {
  id: string;
  productId: string;
  locationId: string;
  lotId: string;
  delta: number;
  serialNumbers: string | null;
};

/** The ledger row's insert: on_hand_after is read from the level in the same batch (raw: an insert from a select). */
const ledgerInsert = (tdb: TenantDb, v: LedgerValues, onlyIf = sql`1`) =>
  insertSelect(
    stockMovements,
    {
      id: v.id,
      tenantId: sql`tenant_id`,
      productId: sql`product_id`,
      locationId: sql`location_id`,
      lotId: sql`lot_id`,
      serialNumbers: v.serialNumbers,
      warehouseId: sql`warehouse_id`,
      delta: v.delta,
      onHandAfter: sql`on_hand`,
      ...ledgerContext(v),
      createdAt: ledgerTime(tdb, v, v.now),
    },
    sql`from stock_levels where ${atLevel(tdb, v)} and ${onlyIf}`,
  );

const unguardedLedgerRow = compiled((tdb, v: LedgerValues) => ledgerInsert(tdb, v));

/**
 * The ledger row of a change already applied: on_hand_after is read from the level in the same batch
 * (raw: an insert from a select, guarded by `onlyIf`). Unguarded, it is compiled once (src/db/compiled.ts).
 */
export function ledgerRow(
  tdb: TenantDb,
  id: string,
  l: Level,
  delta: number,
  ctx: LedgerContext,
  onlyIf?: SQL,
) {
  const values: LedgerValues = {
    id,
    productId: l.productId,
    locationId: l.locationId,
    lotId: lotKey(l),
    delta,
    serialNumbers: ctx.serialNumbers?.length ? JSON.stringify(ctx.serialNumbers) : null,
    ...ledgerContext(ctx),
    now: ctx.now,
  };
  return onlyIf ? ledgerInsert(tdb, values, onlyIf) : unguardedLedgerRow(tdb, values);
}

/** One change of a bulk write: `delta` units at a level, and the id and serials of its ledger row. */
export interface LevelChange extends Level {
  warehouseId: string;
  id: string;
  delta: number;
  serialNumbers?: readonly string[] | null;
  /**
   * Compare-and-swap: the change applies only while the level holds exactly this on hand (0 for a level not
   * created yet); otherwise its on hand becomes -1, which the on-hand CHECK refuses, failing the batch.
   */
  expectOnHand?: number;
  /** The ledger row's reason and notes when they are the change's own (a batch of adjustments). */
  reason?: MovementReason;
  notes?: string | null;
}

// A bulk write's rows travel as ONE JSON parameter per statement (D1 binds at most 100 and caps a
// statement at 100 KB; its text stays the same whatever the rows); ~250 bytes a row, fewer rows a
// part when they carry serial numbers (jsonChunks), keeps each parameter below D1's 1 MB value limit.
const CHANGES_PER_STATEMENT = 500;

/**
 * Many level changes and their ledger rows in a few statements whatever their number (a count's
 * approval, a batch of adjustments): the levels first, then the ledger rows reading each level after them
 * (raw: bulk writes from json_each, guarded by `onlyIf`). A level changed twice (a removal, then an
 * addition) gives its first ledger row the on hand between the two.
 */
export function changeLevels(
  tdb: TenantDb,
  changes: readonly LevelChange[],
  ctx: Omit<LedgerContext, "serialNumbers">,
  onlyIf = sql`1`,
): SQL[] {
  // What later changes of this batch add to each one's level: subtracted to read the on hand after it.
  const later: number[] = [];
  const added = new Map<string, number>();
  for (let i = changes.length - 1; i >= 0; i--) {
    const c = changes[i] as LevelChange;
    const key = `${c.productId}|${c.locationId}|${lotKey(c)}`;
    later[i] = added.get(key) ?? 0;
    added.set(key, (later[i] ?? 0) + c.delta);
  }
  const rows = changes.map((c, i) => ({
    id: c.id,
    p: c.productId,
    l: c.locationId,
    lot: lotKey(c),
    w: c.warehouseId,
    d: c.delta,
    e: c.expectOnHand ?? null,
    s: c.serialNumbers?.length ? c.serialNumbers : null,
    r: c.reason ?? ctx.reason,
    n: c.notes === undefined ? ctx.notes : c.notes,
    later: later[i],
  }));
  const parts = jsonChunks(rows, CHANGES_PER_STATEMENT).map((chunk) => JSON.stringify(chunk));
  // Net change per level of a part (a level may change twice: a serial swap removes and adds).
  const net = (json: string) => sql`(select value ->> 'p' as p, value ->> 'l' as l, value ->> 'lot' as lot,
      max(value ->> 'w') as w, sum(value ->> 'd') as d, max(value ->> 'e') as e
    from json_each(${json}) group by 1, 2, 3)`;
  return [
    // Existing levels move by their net change; then a level that does not exist yet is created with it
    // (a negative one fails the on-hand CHECK like any shortage). An upsert cannot do both: SQLite
    // checks the candidate row's CHECKs before it finds the conflict. A level whose on hand is not the one
    // expected becomes -1 (the CHECK fails the batch).
    ...parts.flatMap((json) => [
      sql`update stock_levels set on_hand = case when j.e is null or on_hand = j.e then on_hand + j.d else -1 end,
          updated_at = ${ctx.now}
        from ${net(json)} j
        where stock_levels.tenant_id = ${tdb.tenantId} and stock_levels.product_id = j.p
          and stock_levels.location_id = j.l and stock_levels.lot_id = j.lot and ${onlyIf}`,
      insertLevels(
        sql`select ${tdb.tenantId}, j.p, j.l, j.lot, j.w, case when j.e is null or j.e = 0 then j.d else -1 end, 0, ${ctx.now}
        from ${net(json)} j
        where j.d <> 0 and not exists (select 1 from stock_levels s where s.tenant_id = ${tdb.tenantId}
          and s.product_id = j.p and s.location_id = j.l and s.lot_id = j.lot) and ${onlyIf}`,
      ),
    ]),
    // CROSS JOIN keeps the JSON rows outside (one key lookup each): SQLite would otherwise walk the tenant's
    // levels and re-read the JSON for each (seconds once a tenant has thousands of levels).
    ...parts.map((json) =>
      insertSelect(
        stockMovements,
        {
          id: sql`j.value ->> 'id'`,
          tenantId: sql`s.tenant_id`,
          productId: sql`s.product_id`,
          locationId: sql`s.location_id`,
          lotId: sql`s.lot_id`,
          serialNumbers: sql`j.value ->> 's'`,
          warehouseId: sql`s.warehouse_id`,
          delta: sql`j.value ->> 'd'`,
          onHandAfter: sql`s.on_hand - (j.value ->> 'later')`,
          ...ledgerContext(ctx),
          reason: sql`j.value ->> 'r'`,
          notes: sql`j.value ->> 'n'`,
          createdAt: ledgerTime(
            tdb,
            { productId: sql`s.product_id`, locationId: sql`s.location_id`, lotId: sql`s.lot_id` },
            ctx.now,
          ),
        },
        sql`from json_each(${json}) j cross join stock_levels s on s.tenant_id = ${tdb.tenantId}
          and s.product_id = j.value ->> 'p' and s.location_id = j.value ->> 'l' and s.lot_id = j.value ->> 'lot'
        where ${onlyIf}`,
      ),
    ),
  ];
}

/** A level's figures as a JSON object, for event payloads built inside the batch. */
export const levelJson = (tdb: TenantDb, l: Level) => levelJsonWhere(atLevel(tdb, l) as SQL);

/** The JSON of the level `where` picks (a bulk write's event names its level by columns of its rows). */
export const levelJsonWhere = (where: SQL) =>
  sql`(select json_object('locationId', location_id, 'warehouseId', warehouse_id,
      'lotId', nullif(lot_id, ''), 'lotNumber', (select number from lots where lots.id = stock_levels.lot_id),
      'onHand', on_hand, 'reserved', reserved,
      'available', ${sellableUnits({ onHand: sql`on_hand`, reserved: sql`reserved`, locationId: sql`stock_levels.location_id` })})
    from stock_levels where ${where})`;

const levelSnapshotStatement = compiled((tdb, l: { productId: string; locationId: string; lotId: string }) =>
  selectStockLevels(
    tdb,
    eq(stockLevels.productId, l.productId),
    eq(stockLevels.locationId, l.locationId),
    eq(stockLevels.lotId, l.lotId),
  ),
);

/** A level as the API shows it, read at the end of the write batch so it shows exactly what committed. */
export const levelSnapshot = (tdb: TenantDb, l: Level) =>
  levelSnapshotStatement(tdb, { productId: l.productId, locationId: l.locationId, lotId: lotKey(l) });

const movementSnapshotStatement = compiled((tdb, ids: Record<string, string>, k: { count: number }) =>
  selectMovements(
    tdb,
    inArray(
      stockMovements.id,
      Array.from({ length: k.count }, (_, i) => ids[`id${i}`] as string),
    ),
  ).orderBy(asc(stockMovements.id)),
);

/** Ledger rows by id, as the API shows them. */
export const movementSnapshot = (tdb: TenantDb, ids: readonly string[]) =>
  movementSnapshotStatement(tdb, Object.fromEntries(ids.map((id, i) => [`id${i}`, id])), {
    count: ids.length,
  });
