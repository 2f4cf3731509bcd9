import { sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { runBatch, type Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { MAX_ON_HAND } from "../db/schema/tenant";
import { AppError, conflict } from "../http/errors";
import { selectedEventRows } from "../outbox/outbox";
import { expiredHoldsOf, toHold } from "./hold-projection";
import { givenReason, type MovementReason } from "./ledger-reasons";
import type { LineLocation, LineProduct, LineTarget } from "./line-targets";
import { type Drop, lowStockEvents } from "./low-stock-event";
import { releaseExpiredHolds } from "./reservations";
import { type Level, type LevelChange, levelJsonWhere } from "./statements";
import { findLots, type SerialUnit, serialsWhereMany, trackingProblems } from "./tracked-stock";
import { adjust } from "./verbs";

// A batch of stock lines, each an adjustment (a signed quantity) or an absolute on hand (a set, with an
// optional compare-and-swap): every line is checked against what is stored, then the good lines are written in
// ONE batch of a few statements whatever their number (changeLevels, bulk serials and events). The CHECKs guard
// it: when a concurrent write makes the batch fail, the lines are checked again from a fresh read and the good
// ones written again. Atomic: any failing line fails them all, and the answer lists each; per line: the good
// lines are written and each line has its own result.

/** What a line does to its level: add or remove units, or set on hand (only if it is `expectedOnHand`). */
export type LineChange = { quantity: number } | { onHand: number; expectedOnHand?: number };

/** A line whose product and location are known. */
export interface StockLine {
  product: LineProduct;
  location: LineLocation;
  change: LineChange;
  reason: MovementReason;
  notes: string | null;
  lotNumber?: string;
  expiresAt?: string;
  manufacturedAt?: string;
  serialNumbers?: readonly string[];
}

/** A line's outcome; a written or unchanged line names its level (the API shows the rest). */
export type LineResult =
  | { status: 201; movementId: string; onHand: number; level: Level }
  | { status: 200; onHand: number; level: Level }
  | { status: 400 | 404 | 409; errors: string[]; onHand?: number };

type Failure = Extract<LineResult, { errors: string[] }>;

const failed = (status: Failure["status"], errors: string[], onHand?: number): Failure => ({
  status,
  errors,
  ...(onHand === undefined ? {} : { onHand }),
});

// A batch that lost a race to a concurrent write is checked and written again at most this many times.
const MAX_ATTEMPTS = 5;

const isSet = (change: LineChange): change is { onHand: number; expectedOnHand?: number } =>
  "onHand" in change;

/** Whether the line adds stock (a new lot number then creates the lot), as far as it can tell before reading. */
const adds = (change: LineChange) => (isSet(change) ? change.onHand > 0 : change.quantity > 0);

/** A line ready to plan: its lot resolved, its level's key. */
interface Prepared extends StockLine {
  index: number;
  lotId?: string;
  key: string;
}

interface LevelRead {
  onHand: number;
  reserved: number;
}

/**
 * Writes the lines; `targets` are their products and locations (or why a line has none). Atomic: 201 with every
 * line's result, or the AppError of the failing lines (400, else 404, else 409) and nothing written. Per line:
 * each line's result, the good lines written.
 */
export async function writeStockLines(
  tdb: TenantDb,
  actor: Actor,
  lines: readonly (Omit<StockLine, "product" | "location"> & { target: LineTarget })[],
  options: {
    atomic: boolean;
    field: string;
    /**
     * Statements committed in the same batch as the lines, given each failing line's errors (by index): a job's
     * record that this chunk of its rows is done, so a retried step never applies it twice.
     */
    commitWith?: (failures: ReadonlyMap<number, string[]>) => Statement[];
  },
): Promise<LineResult[]> {
  const results: (LineResult | undefined)[] = lines.map((l) => ("status" in l.target ? l.target : undefined));
  const pending = await prepare(tdb, lines, results);
  const refused = () => options.atomic && results.some((r) => r && "errors" in r);
  if (refused()) throw batchRefused(results, options.field);
  const failures = () =>
    new Map(results.flatMap((r, index) => (r && "errors" in r ? [[index, r.errors] as const] : [])));
  // No line left to write: what goes with them is committed alone.
  if (pending.length === 0 && options.commitWith)
    await runBatch(tdb, { alongside: options.commitWith(failures()) });
  for (let attempt = 1; pending.length > 0; attempt++) {
    const now = new Date().toISOString();
    const plan = await planLines(tdb, pending, now);
    for (const [index, failure] of plan.failures) results[index] = failure;
    if (refused()) throw batchRefused(results, options.field);
    const toWrite = pending.filter((line) => !plan.failures.has(line.index));
    try {
      const alongside = options.commitWith?.(failures()) ?? [];
      const written = await writePlanned(tdb, actor, toWrite, plan, now, alongside);
      for (const line of toWrite) results[line.index] = written(line);
      break;
    } catch (error) {
      answerFor(error, lostRace);
      if (attempt === MAX_ATTEMPTS) {
        const busy = conflict("Stock changed while writing these lines; retry");
        if (options.atomic) throw busy;
        for (const line of toWrite) results[line.index] = failed(409, busy.errors);
        break;
      }
      pending.splice(0, pending.length, ...toWrite);
    }
  }
  return results as LineResult[];
}

/** The CHECKs a concurrent write can make this batch break: check the lines again from a fresh read. */
const lostRace = {
  stock_levels_on_hand_check: () => undefined,
  stock_levels_reserved_check: () => undefined,
  stock_levels_on_hand_max_check: () => undefined,
  serial_numbers_on_hand_check: () => undefined,
};

/** The refusal of an atomic batch: every failing line, by its place in the request. */
function batchRefused(results: readonly (LineResult | undefined)[], field: string): AppError {
  const failures = results.flatMap((r, i) => (r && "errors" in r ? [{ ...r, i }] : []));
  const errors = failures.flatMap((f) => f.errors.map((e) => `${field}[${f.i}].${e}`));
  const status = Math.min(...failures.map((f) => f.status));
  const message = `${failures.length} of ${results.length} lines cannot be applied; nothing was written`;
  return new AppError(
    status === 400 ? "VALIDATION_FAILED" : status === 404 ? "NOT_FOUND" : "CONFLICT",
    message,
    {
      errors,
    },
  );
}

/**
 * What a line says on its own, before stock is read: its tracking fields for its product (400), its lot (a new
 * number on an addition creates the lot; 409 for a lot that is not there), a level or a serial named twice (400).
 */
async function prepare(
  tdb: TenantDb,
  lines: readonly (Omit<StockLine, "product" | "location"> & { target: LineTarget })[],
  results: (LineResult | undefined)[],
): Promise<Prepared[]> {
  const known = lines.flatMap((line, index) =>
    "status" in line.target || results[index] ? [] : [{ ...line, ...line.target, index }],
  );
  const tracked = known.filter((line) => {
    const quantity = isSet(line.change) ? 0 : line.change.quantity;
    const problems = isSet(line.change)
      ? setTrackingProblems(line)
      : trackingProblems(line.product, line, quantity);
    if (problems.length) results[line.index] = failed(400, problems);
    return problems.length === 0;
  });
  const lotted = tracked.filter((line) => line.lotNumber !== undefined);
  const wanted = (line: (typeof lotted)[number]) => ({
    ...line,
    productId: line.product.id,
    sku: line.product.sku,
    lotNumber: line.lotNumber as string,
  });
  const [added, taken] = await Promise.all([
    findLots(tdb, lotted.filter((l) => adds(l.change)).map(wanted), "add"),
    findLots(tdb, lotted.filter((l) => !adds(l.change)).map(wanted), "take"),
  ]);
  const firstOfLevel = new Map<string, number>();
  const firstOfSerial = new Map<string, number>();
  return tracked.flatMap((line) => {
    let lotId: string | undefined;
    if (line.lotNumber !== undefined) {
      const lots = adds(line.change) ? added : taken;
      const problem = lots.problemOf(wanted(line));
      if (problem) {
        results[line.index] = failed(409, [problem]);
        return [];
      }
      lotId = lots.idOf(line.product.id, line.lotNumber);
    }
    const key = `${line.product.id}|${line.location.id}|${lotId ?? ""}`;
    const twice = [
      ...named(firstOfLevel, [key], line.index, () => "stockLevel: named by"),
      ...named(
        firstOfSerial,
        (line.serialNumbers ?? []).map((s) => `${line.product.id}|${s}`),
        line.index,
        (k) => `serialNumbers: ${k.split("|")[1]} is named by`,
      ),
    ];
    if (twice.length) {
      results[line.index] = failed(400, twice);
      return [];
    }
    return [{ ...line, lotId, key }];
  });
}

/** `what i` for each key an earlier line already named; records the line's keys otherwise. */
function named(
  first: Map<string, number>,
  keys: readonly string[],
  index: number,
  what: (k: string) => string,
) {
  return keys.flatMap((k) => {
    const earlier = first.get(k);
    if (earlier !== undefined) return [`${what(k)} line ${earlier} already`];
    first.set(k, index);
    return [];
  });
}

/** A set names a lot for a lot-tracked product; serial-tracked stock is changed by adjustments naming serials. */
function setTrackingProblems(line: StockLine): string[] {
  const { tracking, sku } = line.product;
  if (tracking === "serial")
    return [`onHand: product ${sku} is serial-tracked: adjust it naming serial numbers`];
  return trackingProblems(line.product, { lotNumber: line.lotNumber }, 0);
}

interface Plan {
  failures: Map<number, Failure>;
  changes: Map<number, LevelChange>;
  levels: Map<string, LevelRead>;
  expiredHolds: ReturnType<typeof toHold>[];
}

/** Each line checked against the stock read now: the change it makes, or why it cannot. */
async function planLines(tdb: TenantDb, lines: readonly Prepared[], now: string): Promise<Plan> {
  const keys = JSON.stringify(lines.map((l) => ({ p: l.product.id, l: l.location.id, lot: l.lotId ?? "" })));
  const units = lines.flatMap((l) =>
    (l.serialNumbers ?? []).map((serial) => ({ productId: l.product.id, serial })),
  );
  const [read, serialsAt] = await Promise.all([
    runBatch(tdb, {
      levels: sql`select s.product_id || '|' || s.location_id || '|' || s.lot_id as key, s.on_hand as onHand,
          s.reserved as reserved
        from json_each(${keys}) k cross join stock_levels s on s.tenant_id = ${tdb.tenantId}
          and s.product_id = k.value ->> 'p' and s.location_id = k.value ->> 'l' and s.lot_id = k.value ->> 'lot'`,
      expiredHolds: expiredHoldsOf(
        tdb,
        lines.map((l) => l.product.id),
        now,
      ),
    }),
    units.length ? serialsWhereMany(tdb, units) : new Map<string, string | null>(),
  ]);
  const levels = new Map(
    (read.levels.results as { key: string; onHand: number; reserved: number }[]).map((r) => [r.key, r]),
  );
  const expiredHolds = read.expiredHolds.map(toHold);
  // Expired holds do not block a removal: the write releases them first.
  const freed = new Map<string, number>();
  for (const hold of expiredHolds) {
    for (const a of hold.allocations) {
      const key = `${hold.productId}|${a.locationId}|${a.lotId ?? ""}`;
      freed.set(key, (freed.get(key) ?? 0) + a.quantity);
    }
  }
  const failures = new Map<number, Failure>();
  const changes = new Map<number, LevelChange>();
  for (const line of lines) {
    const level = levels.get(line.key);
    const onHand = level?.onHand ?? 0;
    const reserved = (level?.reserved ?? 0) - (freed.get(line.key) ?? 0);
    const outcome = planLine(line, onHand, reserved, serialsAt);
    if ("errors" in outcome) failures.set(line.index, outcome);
    else if (outcome.delta !== 0) {
      changes.set(line.index, {
        id: uuidv7(),
        productId: line.product.id,
        locationId: line.location.id,
        lotId: line.lotId,
        warehouseId: line.location.warehouseId,
        delta: outcome.delta,
        serialNumbers: line.serialNumbers ?? null,
        ...(isSet(line.change) ? { expectOnHand: onHand } : {}),
        reason: line.reason,
        notes: line.notes,
      });
    }
  }
  return { failures, changes, levels, expiredHolds };
}

/** One line against its level's on hand and reserved (expired holds not counted) and where its serials are. */
function planLine(
  line: Prepared,
  onHand: number,
  reserved: number,
  serialsAt: ReadonlyMap<string, string | null>,
): Failure | { delta: number } {
  const { change, location } = line;
  let delta: number;
  if (isSet(change)) {
    if (change.expectedOnHand !== undefined && change.expectedOnHand !== onHand) {
      return failed(
        409,
        [`expectedOnHand: on hand is ${onHand}, not ${change.expectedOnHand}; nothing changed`],
        onHand,
      );
    }
    if (change.onHand < reserved) {
      return failed(
        409,
        [`onHand: ${reserved} units here are reserved; on hand cannot be set below that`],
        onHand,
      );
    }
    delta = change.onHand - onHand;
  } else {
    delta = change.quantity;
    const available = onHand - reserved;
    if (delta < 0 && -delta > available) {
      return failed(
        409,
        [`quantity: Insufficient stock: requested ${-delta}, available ${available}`],
        onHand,
      );
    }
  }
  if (delta > 0 && !location.active) {
    return failed(
      409,
      [`locationCode: Location ${location.code} is inactive and cannot receive stock`],
      onHand,
    );
  }
  if (onHand + delta > MAX_ON_HAND) {
    return failed(
      409,
      [`quantity: a stock level holds at most ${MAX_ON_HAND} units; this location holds ${onHand}`],
      onHand,
    );
  }
  const misplaced = (line.serialNumbers ?? []).flatMap((serial) => {
    const at = serialsAt.get(`${line.product.id}|${serial}`);
    if (delta > 0) return at ? [`serialNumbers: ${serial} is already in stock`] : [];
    return at === location.id
      ? []
      : [`serialNumbers: ${serial} is not in stock at location ${location.code}`];
  });
  if (misplaced.length) return failed(409, misplaced, onHand);
  return { delta };
}

/**
 * ONE batch: the expired holds in the way released, every level changed with its ledger row (reason and notes
 * the line's), the serial units moved, an `inventory.adjusted` event per line and `inventory.low_stock` per
 * product that crossed its reorder point. Returns each written line's result.
 */
async function writePlanned(
  tdb: TenantDb,
  actor: Actor,
  lines: readonly Prepared[],
  plan: Plan,
  now: string,
  alongside: Statement[],
) {
  const changes = lines.flatMap((line) => plan.changes.get(line.index) ?? []);
  const unitsOf = (line: Prepared): SerialUnit[] =>
    (line.serialNumbers ?? []).map((serial) => ({
      productId: line.product.id,
      serial,
      locationId: line.location.id,
      warehouseId: line.location.warehouseId,
    }));
  const received = lines.filter((l) => (plan.changes.get(l.index)?.delta ?? 0) > 0).flatMap(unitsOf);
  const taken = lines.filter((l) => (plan.changes.get(l.index)?.delta ?? 0) < 0).flatMap(unitsOf);
  const drops = new Map<string, Drop[]>();
  for (const c of changes) {
    if (c.delta < 0)
      drops.set(c.productId, [...(drops.get(c.productId) ?? []), { lotId: c.lotId, units: -c.delta }]);
  }
  const after = new Map<string, number>();
  if (changes.length === 0 && alongside.length > 0) await runBatch(tdb, { alongside });
  if (changes.length > 0) {
    // Every change names its own reason (changeLevels); the batch's is never stored.
    const ctx = {
      ...actor,
      reason: givenReason(""),
      referenceType: null,
      referenceId: null,
      notes: null,
      now,
    };
    const written = await runBatch(tdb, {
      expiredHolds: releaseExpiredHolds(tdb, plan.expiredHolds, now),
      ...adjust(tdb, changes, { taken, received }, ctx),
      adjusted: adjustedEvents(tdb, changes, now),
      lowStock: lowStockEvents(
        tdb,
        [...drops].map(([productId, taken]) => ({ productId, drops: taken })),
        now,
      ),
      // Adjustments are relative: a concurrent change may have come between the read and the write, so the
      // on hand after each is read back from its ledger row.
      after: sql`select m.id, m.on_hand_after as onHand from json_each(${JSON.stringify(changes.map((c) => c.id))}) j
        cross join stock_movements m on m.id = j.value where m.tenant_id = ${tdb.tenantId}`,
      alongside,
    });
    for (const row of written.after.results as { id: string; onHand: number }[])
      after.set(row.id, row.onHand);
  }
  return (line: Prepared): LineResult => {
    const change = plan.changes.get(line.index);
    const level = { productId: line.product.id, locationId: line.location.id, lotId: line.lotId };
    // A set to what is there changes nothing and writes no ledger row.
    if (!change) return { status: 200, onHand: plan.levels.get(line.key)?.onHand ?? 0, level };
    return { status: 201, movementId: change.id, onHand: after.get(change.id) ?? 0, level };
  };
}

/**
 * `inventory.adjusted` for each change, as a single adjustment writes it: built from its ledger row and its level
 * after the batch (one change per level, so that is the level just after the change).
 */
function adjustedEvents(tdb: TenantDb, changes: readonly LevelChange[], now: string) {
  const level =
    levelJsonWhere(sql`stock_levels.tenant_id = m.tenant_id and stock_levels.product_id = m.product_id
    and stock_levels.location_id = m.location_id and stock_levels.lot_id = m.lot_id`);
  return selectedEventRows(
    tdb,
    "inventory.adjusted",
    changes.map((c) => ({ m: c.id })),
    now,
    {
      payload: sql`json_object('movementId', m.id, 'productId', m.product_id, 'delta', m.delta, 'reason', m.reason,
        'lotNumber', (select number from lots where lots.tenant_id = m.tenant_id and lots.id = m.lot_id),
        'serialNumbers', json(m.serial_numbers), 'stockLevel', json(${level}))`,
      // CROSS JOIN: the ledger rows by id, one lookup each (a plain join walked the tenant's whole ledger per row).
      from: () =>
        sql`cross join stock_movements m on m.tenant_id = ${tdb.tenantId} and m.id = j.value ->> 'm'`,
    },
  );
}
