import type { SQL } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { chunks, type Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { addReservedStock } from "./order-stock";
import {
  addStock,
  changeLevel,
  changeLevels,
  type LedgerContext,
  type Level,
  type LevelChange,
  ledgerRow,
  levelExists,
} from "./statements";
import {
  receiveSerials,
  receiveSerialUnits,
  type SerialUnit,
  takeSerials,
  takeSerialUnits,
} from "./tracked-stock";

// The warehouse's verbs: each turns a line (product, location, lot, serials, quantity) and why it moves into the
// statements of the caller's batch, always the level's change with its ledger row and the serials' move together.
// The caller adds its own guard (`guard`: every statement runs only while it holds) and runs the batch; the
// stock_levels and serial_numbers CHECKs refuse a removal of stock that is not there, failing the whole batch.

/** Why stock moves, who moves it, and when: a ledger row's context (the line carries the serials). */
export type Why = Omit<LedgerContext, "serialNumbers">;

/** Units at a level: `quantity` (> 0) and, of a serial-tracked product, their serial numbers. */
export interface StockLine extends Level {
  quantity: number;
  serialNumbers?: readonly string[] | null;
}

export interface VerbOptions {
  /** Every statement runs only while this holds (the caller's version guard). */
  guard?: SQL;
  /** The ledger row's id, when the caller reads the row back. */
  movementId?: string;
  /**
   * Whether the serial numbers move in stock (default) or are only written on the ledger row (a scrapped return's
   * units, which arrive and leave in the same batch and never stand in stock).
   */
  serials?: "move" | "ledger only";
}

const serialsOf = (line: StockLine) => (line.serialNumbers?.length ? line.serialNumbers : null);

const ledger = (why: Why, serialNumbers: readonly string[] | null): LedgerContext => ({
  ...why,
  serialNumbers,
});

/**
 * Units arriving from outside (a receipt, a return, an addition): the level up (created on first use, in
 * `warehouseId`, or read from the location in the batch when null), its ledger row, the serials into stock there.
 */
export function receive(
  tdb: TenantDb,
  line: StockLine & { warehouseId: string | null },
  why: Why,
  options: VerbOptions = {},
) {
  const { guard } = options;
  const serials = serialsOf(line);
  const at = { locationId: line.locationId, warehouseId: line.warehouseId as string };
  return {
    level: addStock(tdb, line, line.quantity, why.now, guard),
    ledger: ledgerRow(tdb, options.movementId ?? uuidv7(), line, line.quantity, ledger(why, serials), guard),
    serials:
      serials && options.serials !== "ledger only"
        ? receiveSerials(tdb, line.productId, at, serials, why.now, guard)
        : undefined,
  };
}

/**
 * Units leaving stock (a removal, a write-off): the level's on hand down (no row changes when the level does not
 * exist: `changesOf(level)` is 0), its ledger row, the serials out of stock (unguarded, only where the level exists).
 */
export function issue(tdb: TenantDb, line: StockLine, why: Why, options: VerbOptions = {}) {
  const { guard } = options;
  const serials = serialsOf(line);
  return {
    level: changeLevel(tdb, line, { onHand: -line.quantity }, why.now, guard),
    ledger: ledgerRow(tdb, options.movementId ?? uuidv7(), line, -line.quantity, ledger(why, serials), guard),
    serials:
      serials && options.serials !== "ledger only"
        ? takeSerials(
            tdb,
            line.productId,
            line.locationId,
            serials,
            why.now,
            undefined,
            guard ?? levelExists(tdb, line),
          )
        : undefined,
  };
}

/** Units shipped from where an order holds them: on hand and reserved down, the ledger row, the serials out. */
export function ship(tdb: TenantDb, line: StockLine, why: Why, options: VerbOptions = {}) {
  const { guard } = options;
  const serials = serialsOf(line);
  const q = line.quantity;
  return {
    level: changeLevel(tdb, line, { onHand: -q, reserved: -q }, why.now, guard),
    ledger: ledgerRow(tdb, options.movementId ?? uuidv7(), line, -q, ledger(why, serials), guard),
    serials: serials
      ? takeSerials(tdb, line.productId, line.locationId, serials, why.now, undefined, guard)
      : undefined,
  };
}

/** Where a move puts its units: a location and its warehouse (null: read from the location in the batch). */
export interface Destination {
  locationId: string;
  warehouseId: string | null;
}

/**
 * Units moving between two locations as themselves (the same lot, the same serials): the source down, the
 * destination up (only when the source level exists), a ledger row on each side (`movementIds`, source first).
 */
export function move(
  tdb: TenantDb,
  from: StockLine,
  to: Destination,
  why: Why,
  movementIds: readonly [string, string] = [uuidv7(), uuidv7()],
) {
  const serials = serialsOf(from);
  const q = from.quantity;
  const destination = { ...from, ...to };
  const sourceExists = levelExists(tdb, from);
  return {
    removal: changeLevel(tdb, from, { onHand: -q }, why.now),
    removalLedger: ledgerRow(tdb, movementIds[0], from, -q, ledger(why, serials)),
    addition: addStock(tdb, destination, q, why.now, sourceExists),
    additionLedger: ledgerRow(tdb, movementIds[1], destination, q, ledger(why, serials), sourceExists),
    serials: serials
      ? takeSerials(tdb, from.productId, from.locationId, serials, why.now, {
          locationId: to.locationId,
          warehouseId: to.warehouseId as string,
        })
      : undefined,
  };
}

/**
 * Units reserved for an order line moving with their reservation (a pick, from the bin to the packing location):
 * the bin's on hand and reserved down, the destination's both up and the order's reservation row there growing,
 * a ledger row on each side, the serials moving along.
 */
export function moveReserved(
  tdb: TenantDb,
  from: StockLine,
  to: Destination & { warehouseId: string },
  reservation: { orderId: string; lineId: string },
  why: Why,
  guard: SQL,
) {
  const serials = serialsOf(from);
  const q = from.quantity;
  return {
    bin: [
      changeLevel(tdb, from, { onHand: -q, reserved: -q }, why.now, guard),
      ledgerRow(tdb, uuidv7(), from, -q, ledger(why, serials), guard),
    ],
    pack: addReservedStock(tdb, { ...from, ...to }, reservation, q, ledger(why, serials), guard),
    serials: serials
      ? takeSerials(tdb, from.productId, from.locationId, serials, why.now, to, guard)
      : undefined,
  };
}

// A serial statement's units travel as one JSON parameter: 1,000 keep it well below D1's 1 MB value limit.
const SERIALS_PER_STATEMENT = 1000;

/**
 * Many levels changed at once (a count's approval, a batch of adjustments or sets): the levels and their ledger
 * rows in a few statements whatever their number (a change with `expectOnHand` is a compare-and-swap, and each
 * may name its own reason), then the serials that leave taken out of stock, then those that arrive put in it.
 */
export function adjust(
  tdb: TenantDb,
  changes: readonly LevelChange[],
  serials: { taken: readonly SerialUnit[]; received: readonly SerialUnit[] },
  why: Why,
  guard?: SQL,
) {
  return {
    levels: changeLevels(tdb, changes, why, guard),
    taken: chunks(serials.taken, SERIALS_PER_STATEMENT).map((units) =>
      takeSerialUnits(tdb, units, why.now, undefined, guard),
    ),
    received: chunks(serials.received, SERIALS_PER_STATEMENT).map((units) =>
      receiveSerialUnits(tdb, units, why.now, guard),
    ),
  };
}

/**
 * A cancelled shipment's units back at their warehouses' packing locations, reserved again for the order lines
 * they shipped on (each line's level up on hand and reserved, its ledger row, its reservation row), and its
 * serial numbers in stock there again.
 */
export function unship(
  tdb: TenantDb,
  lines: readonly (Level & { warehouseId: string; quantity: number; orderId: string; lineId: string })[],
  serials: readonly SerialUnit[],
  why: Why,
  guard: SQL,
) {
  return {
    stock: lines.flatMap((l) =>
      addReservedStock(
        tdb,
        l,
        { orderId: l.orderId, lineId: l.lineId },
        l.quantity,
        ledger(why, null),
        guard,
      ),
    ),
    serials: serials.length ? receiveSerialUnits(tdb, serials, why.now, guard) : undefined,
  };
}

/** A verb's statements in their order, for a batch entry that lists them (serials that do not move left out). */
export const statementsOf = (
  fragment: Readonly<Record<string, Statement | readonly Statement[] | undefined>>,
) =>
  Object.values(fragment).flatMap((entry): readonly Statement[] =>
    entry === undefined ? [] : Array.isArray(entry) ? entry : [entry as Statement],
  );
