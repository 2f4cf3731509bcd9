import { eq, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { inJsonArray, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { lots, type productTrackings, serialNumbers } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError, conflict } from "../http/errors";
import { validationError } from "../http/validation";

// How a stock write of a tracked product names its units: lot-tracked stock by lot number (a new number
// on an addition creates the lot), serial-tracked stock by serial numbers (one per unit). Checked
// before the write's batch, which the serial_numbers CHECK then backs up under any concurrency.

export type Tracking = (typeof productTrackings)[number];

export interface TrackedProduct {
  id: string;
  sku: string;
  tracking: Tracking;
}

export interface TrackedInput {
  lotNumber?: string;
  expiresAt?: string;
  manufacturedAt?: string;
  serialNumbers?: readonly string[];
}

/** Every problem of a write's tracking fields for its product (a 400, one message per problem). */
export function trackingProblems(
  product: TrackedProduct,
  input: TrackedInput,
  quantity: number,
  field = "",
): string[] {
  const problems: string[] = [];
  const say = (name: string, message: string) => problems.push(`${field}${name}: ${message}`);
  const { tracking, sku } = product;
  if (tracking === "lot" && input.lotNumber === undefined) {
    say("lotNumber", `product ${sku} is lot-tracked: name the lot`);
  }
  if (tracking !== "lot") {
    for (const name of ["lotNumber", "expiresAt", "manufacturedAt"] as const) {
      if (input[name] !== undefined) say(name, `product ${sku} is not lot-tracked`);
    }
  }
  if (tracking === "serial") {
    const serials = input.serialNumbers;
    if (serials === undefined) {
      say("serialNumbers", `product ${sku} is serial-tracked: name one serial number per unit`);
    } else {
      if (serials.length !== Math.abs(quantity)) {
        say("serialNumbers", `${serials.length} serial numbers for a quantity of ${Math.abs(quantity)}`);
      }
      for (const serial of duplicates(serials)) say("serialNumbers", `${serial} is given more than once`);
    }
  } else if (input.serialNumbers !== undefined) {
    say("serialNumbers", `product ${sku} is not serial-tracked`);
  }
  return problems;
}

const duplicates = (values: readonly string[]) => [
  ...new Set(values.filter((v, i) => values.indexOf(v) !== i)),
];

/** A serial number named on two lines of one receipt (of the same product) is one unit received twice. */
export function serialsOnTwoLines(
  lines: readonly { productId: string; serialNumbers?: readonly string[] }[],
) {
  const firstLine = new Map<string, number>();
  return lines.flatMap((l, i) =>
    (l.serialNumbers ?? []).flatMap((serial) => {
      const key = `${l.productId}|${serial}`;
      const first = firstLine.get(key);
      if (first === undefined) firstLine.set(key, i);
      return first !== undefined && first !== i
        ? [`lines[${i}].serialNumbers: ${serial} is also received on lines[${first}]`]
        : [];
    }),
  );
}

/** A receipt's or count's lines, each with its product (undefined: not found, answered elsewhere). */
type LinesOfProducts = readonly (TrackedInput & { quantity: number; product: TrackedProduct | undefined })[];

/** Every problem of the lines' tracking fields for their products (`lines[i].` before each). */
export const linesTrackingProblems = (lines: LinesOfProducts) =>
  lines.flatMap((l, i) => (l.product ? trackingProblems(l.product, l, l.quantity, `lines[${i}].`) : []));

/** The ids of the lots the lines name (`resolveLots`: an addition creates the ones it does not find). */
export const resolveLinesLots = (tdb: TenantDb, lines: LinesOfProducts, mode: "add" | "take") =>
  resolveLots(
    tdb,
    lines.flatMap((l, i) =>
      l.product && l.lotNumber !== undefined
        ? [
            {
              ...l,
              productId: l.product.id,
              sku: l.product.sku,
              lotNumber: l.lotNumber,
              field: `lines[${i}].`,
            },
          ]
        : [],
    ),
    mode,
  );

/** The 409s of the serial numbers lines bring into stock that are in stock already. */
export async function serialsAlreadyInStock(
  tdb: TenantDb,
  lines: readonly { productId: string; serialNumbers?: readonly string[] }[],
) {
  const problems = await Promise.all(
    lines.map((l, i) =>
      l.serialNumbers
        ? serialProblems(tdb, l.productId, l.serialNumbers, { mode: "add" }, `lines[${i}].`)
        : [],
    ),
  );
  return problems.flat();
}

/** Throws the 400 of every problem, when there are any. */
export function assertTracking(problems: readonly string[]): void {
  if (problems.length) throw validationError([...problems]);
}

export interface LotWanted {
  productId: string;
  sku: string;
  lotNumber: string;
  expiresAt?: string;
  manufacturedAt?: string;
  /** Where the lot is named in the request (`lines[2].`), for messages. */
  field?: string;
}

const lotKey = (productId: string, number: string) => `${productId}|${number}`;

/**
 * The ids of the lots a write names, by (product, number). An addition creates the lots it does not
 * find (their own round trip: a lot without stock is harmless if the stock write then fails) and
 * refuses an expiry that contradicts a known lot's; a removal or a move needs lots that exist (409).
 */
export async function resolveLots(
  tdb: TenantDb,
  wanted: readonly LotWanted[],
  mode: "add" | "take",
): Promise<(productId: string, lotNumber: string) => string> {
  const { idOf, problemOf } = await findLots(tdb, wanted, mode);
  const problems = wanted.flatMap((w) => problemOf(w) ?? []);
  if (problems.length) throw conflict(problems[0] as string, problems);
  return (productId, lotNumber) => idOf(productId, lotNumber) ?? "";
}

/**
 * The lots a write names (an addition creates the missing ones), and each wanted lot's problem, if it has
 * one (a batch answers each line on its own).
 */
export async function findLots(tdb: TenantDb, wanted: readonly LotWanted[], mode: "add" | "take") {
  if (wanted.length === 0) {
    return { idOf: (_p: string, _n: string): string | undefined => undefined, problemOf: () => undefined };
  }
  const now = new Date().toISOString();
  const fresh = JSON.stringify(
    wanted.map((w) => ({
      id: uuidv7(),
      p: w.productId,
      n: w.lotNumber,
      e: w.expiresAt ?? null,
      m: w.manufacturedAt ?? null,
    })),
  );
  const read = await runBatch(tdb, {
    created:
      mode === "add"
        ? sql`insert into lots (id, tenant_id, product_id, number, expires_at, manufactured_at, created_at)
            select json_extract(value, '$.id'), ${tdb.tenantId}, json_extract(value, '$.p'), json_extract(value, '$.n'),
              json_extract(value, '$.e'), json_extract(value, '$.m'), ${now}
            from json_each(${fresh}) where true
            on conflict (tenant_id, product_id, number) do nothing`
        : undefined,
    // A superset (every named product's lots with any named number), narrowed to the exact pairs below.
    lots: tdb.db
      .select({ id: lots.id, productId: lots.productId, number: lots.number, expiresAt: lots.expiresAt })
      .from(lots)
      .where(
        inTenant(
          tdb,
          lots,
          inJsonArray(lots.productId, [...new Set(wanted.map((w) => w.productId))]),
          inJsonArray(lots.number, [...new Set(wanted.map((w) => w.lotNumber))]),
        ),
      ),
  });
  const found = new Map(read.lots.map((lot) => [lotKey(lot.productId, lot.number), lot]));
  const problemOf = (w: LotWanted): string | undefined => {
    const lot = found.get(lotKey(w.productId, w.lotNumber));
    if (!lot) return `${w.field ?? ""}lotNumber: product ${w.sku} has no lot ${w.lotNumber}`;
    if (mode === "add" && w.expiresAt !== undefined && w.expiresAt !== lot.expiresAt) {
      return `${w.field ?? ""}expiresAt: lot ${w.lotNumber} expires ${lot.expiresAt ?? "never"}, not ${w.expiresAt}`;
    }
    return undefined;
  };
  return {
    idOf: (productId: string, lotNumber: string) => found.get(lotKey(productId, lotNumber))?.id,
    problemOf,
  };
}

/** Where each of `serials` is now: its location while on hand (null: not in stock or never received). */
export async function serialsWhere(tdb: TenantDb, productId: string, serials: readonly string[]) {
  const where = await serialsWhereMany(
    tdb,
    serials.map((serial) => ({ productId, serial })),
  );
  return new Map(serials.map((serial) => [serial, where.get(`${productId}|${serial}`) ?? null]));
}

/** The 409 of every serial that cannot do what the write asks (read now, so it names the present state). */
export async function serialProblems(
  tdb: TenantDb,
  productId: string,
  serials: readonly string[],
  expect: { mode: "add" } | { mode: "take"; locationId: string; locationCode?: string },
  field = "",
): Promise<string[]> {
  const where = await serialsWhere(tdb, productId, serials);
  return serials.flatMap((serial) => {
    const at = where.get(serial) ?? null;
    if (expect.mode === "add") return at ? [`${field}serialNumbers: ${serial} is already in stock`] : [];
    const place = expect.locationCode ?? expect.locationId;
    return at === expect.locationId
      ? []
      : [`${field}serialNumbers: ${serial} is not in stock at location ${place}`];
  });
}

/** Checks serials before a write; 409 naming each one that is not where the write needs it. */
export async function assertSerials(...args: Parameters<typeof serialProblems>): Promise<void> {
  const problems = await serialProblems(...args);
  if (problems.length) throw conflict(problems[0] as string, problems);
}

/** The 409 of a write whose serials a concurrent write changed (its CHECK failed): read again to say which. */
export async function serialClash(...args: Parameters<typeof serialProblems>): Promise<AppError> {
  const problems = await serialProblems(...args);
  return problems.length ? conflict(problems[0] as string, problems) : serialsChanged();
}

/**
 * A serial that changed between the check and the write (its CHECK, `serial_numbers_on_hand_check`, rolled
 * the batch back: a serial received twice or taken where it is not): 409, never a 500.
 */
export const serialsChanged = () =>
  new AppError("CONFLICT", "Serial numbers changed while writing; reload them and retry");

/** One serial unit of a bulk serial write, and where it is put or taken. */
export interface SerialUnit {
  productId: string;
  serial: string;
  locationId: string;
  warehouseId: string;
}

const unitsJson = (units: readonly Omit<SerialUnit, "warehouseId">[]) =>
  JSON.stringify(
    units.map((u) => ({ p: u.productId, s: u.serial, l: u.locationId, w: (u as SerialUnit).warehouseId })),
  );

/** Where each serial of `units` is in stock now (by `productId|serial`; absent: not in stock). */
export async function serialsWhereMany(
  tdb: TenantDb,
  units: readonly Omit<SerialUnit, "locationId" | "warehouseId">[],
) {
  // A superset (every named product's serials with any named number), narrowed to the exact pairs by key.
  const rows = await tdb.db
    .select({
      productId: serialNumbers.productId,
      serial: serialNumbers.serial,
      locationId: serialNumbers.locationId,
    })
    .from(serialNumbers)
    .where(
      inTenant(
        tdb,
        serialNumbers,
        inJsonArray(serialNumbers.productId, [...new Set(units.map((u) => u.productId))]),
        inJsonArray(serialNumbers.serial, [...new Set(units.map((u) => u.serial))]),
        eq(serialNumbers.onHand, 1),
      ),
    );
  return new Map(rows.map((row) => [`${row.productId}|${row.serial}`, row.locationId]));
}

/**
 * Puts serial units in stock, each at its location (raw: a bulk upsert from json_each). One already on
 * hand becomes on_hand 2, which the CHECK refuses (failing the whole batch): a unit is never in stock twice.
 */
export function receiveSerialUnits(
  tdb: TenantDb,
  units: readonly SerialUnit[],
  now: string,
  onlyIf = sql`1`,
) {
  return sql`insert into serial_numbers (tenant_id, product_id, serial, location_id, warehouse_id, on_hand, created_at, updated_at)
    select ${tdb.tenantId}, value ->> 'p', value ->> 's', value ->> 'l', value ->> 'w', 1, ${now}, ${now}
    from json_each(${unitsJson(units)}) where ${onlyIf}
    on conflict (tenant_id, product_id, serial) do update set on_hand = on_hand + 1,
      location_id = excluded.location_id, warehouse_id = excluded.warehouse_id, updated_at = excluded.updated_at`;
}

/** Puts serials in stock at one location (a receipt, a return, an addition). */
export const receiveSerials = (
  tdb: TenantDb,
  productId: string,
  at: { locationId: string; warehouseId: string },
  serials: readonly string[],
  now: string,
  onlyIf = sql`1`,
) =>
  receiveSerialUnits(
    tdb,
    serials.map((serial) => ({ productId, serial, ...at })),
    now,
    onlyIf,
  );

/**
 * Takes serial units out of stock, each from its location (removal, shipping, a count's missing serials),
 * or moves them all to `to` (raw: a bulk update from json_each). A unit not in stock at its location is
 * set to -1, which the CHECK refuses (failing the whole batch).
 */
export function takeSerialUnits(
  tdb: TenantDb,
  units: readonly Omit<SerialUnit, "warehouseId">[],
  now: string,
  to?: { locationId: string; warehouseId: string },
  onlyIf = sql`1`,
) {
  const after = to ? 1 : 0;
  // Materialized: otherwise SQLite walks every serial of the tenant and re-reads the JSON for each (seconds
  // for a few thousand units); so each unit is one primary-key lookup.
  return sql`with j as materialized (select value ->> 'p' as p, value ->> 's' as s, value ->> 'l' as l
      from json_each(${unitsJson(units)}))
    update serial_numbers
    set on_hand = case when on_hand = 1 and location_id = j.l then ${after} else -1 end,
      location_id = coalesce(${to?.locationId ?? null}, j.l), warehouse_id = coalesce(${to?.warehouseId ?? null}, warehouse_id),
      updated_at = ${now}
    from j
    where serial_numbers.tenant_id = ${tdb.tenantId} and serial_numbers.product_id = j.p
      and serial_numbers.serial = j.s and ${onlyIf}`;
}

/** Takes serials out of stock at one location (removal, shipping), or moves them to another (`to`). */
export const takeSerials = (
  tdb: TenantDb,
  productId: string,
  from: string,
  serials: readonly string[],
  now: string,
  to?: { locationId: string; warehouseId: string },
  onlyIf = sql`1`,
) =>
  takeSerialUnits(
    tdb,
    serials.map((serial) => ({ productId, serial, locationId: from })),
    now,
    to,
    onlyIf,
  );
