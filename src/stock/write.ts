import { and, eq, exists, lte, ne, notExists, type SQL } from "drizzle-orm";
import type { Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { compiled } from "../db/compiled";
import { answerFor } from "../db/constraint-errors";
import { refuseUnless } from "../db/preconditions";
import { locations, products, stockHolds } from "../db/schema/tenant";
import { tenantRows } from "../db/tenant-scope";
import { insufficientStock, shortage } from "./insufficient-stock";
import { overCeiling } from "./level-ceiling";
import type { PackedAmount } from "./packs";
import type { HoldRecord } from "./schemas";
import type { Level } from "./statements";
import {
  assertSerials,
  assertTracking,
  resolveLots,
  serialClash,
  type serialProblems,
  type TrackedInput,
  type TrackedProduct,
  trackingProblems,
} from "./tracked-stock";

// What an adjustment and a transfer share: a plain write checked inside its one batch, the lot and serial
// numbers a tracked one names, checked before its batch, and the 409 a failed batch means.

/**
 * The units of a plain write (a quantity, no packs, no lot or serial fields), whose targets its batch can check
 * itself (`plainTargetsGuard`); undefined for any other, which reads its targets first.
 */
function plainQuantity(body: PackedAmount & TrackedInput): number | undefined {
  const { packaging, lotNumber, expiresAt, manufacturedAt, serialNumbers } = body;
  const tracked = [lotNumber, expiresAt, manufacturedAt, serialNumbers].some((field) => field !== undefined);
  return packaging === undefined && !tracked ? body.quantity : undefined;
}

/**
 * The first statement of a plain write's batch: it refuses the batch (`precondition_refused`) unless everything
 * the write would otherwise have read and checked first holds: the product is the tenant's, stocked and
 * untracked; the location it takes from is the tenant's, and no expired hold of the product waits for its
 * release there (the read path releases it in its batch); the location it puts into is the tenant's and active.
 */
const targetsGuard = compiled(
  (
    tdb,
    v: { productId: string; takesFrom: string | null; putsInto: string | null; now: string },
    k: { takes: boolean; puts: boolean },
  ) => {
    const location = (id: string | null, receives: boolean) =>
      exists(
        tenantRows(
          tdb,
          locations,
          eq(locations.id, id as string),
          receives ? eq(locations.active, true) : undefined,
        ),
      );
    const product = exists(
      tenantRows(
        tdb,
        products,
        eq(products.id, v.productId),
        ne(products.type, "kit"),
        eq(products.tracking, "none"),
      ),
    );
    const expiredHold = notExists(
      tenantRows(
        tdb,
        stockHolds,
        eq(stockHolds.productId, v.productId),
        eq(stockHolds.status, "active"),
        lte(stockHolds.expiresAt, v.now),
      ),
    );
    return refuseUnless(
      tdb,
      and(
        product,
        k.takes ? location(v.takesFrom, false) : undefined,
        k.puts ? location(v.putsInto, true) : undefined,
        k.takes ? expiredHold : undefined,
      ) as SQL,
    );
  },
);

/** The guard of a plain write taking from `takesFrom`, putting into `putsInto`, or both (see targetsGuard). */
export const plainTargetsGuard = (
  tdb: TenantDb,
  target: { productId: string; takesFrom?: string; putsInto?: string },
  now: string,
) =>
  targetsGuard(
    tdb,
    {
      productId: target.productId,
      takesFrom: target.takesFrom ?? null,
      putsInto: target.putsInto ?? null,
      now,
    },
    { takes: target.takesFrom !== undefined, puts: target.putsInto !== undefined },
  );

/**
 * A write of `body` in one round trip when it is plain (`unchecked(quantity, now)`, its batch guarded by
 * `plainTargetsGuard`), and when that guard refuses it, or the write is not plain, the write that reads and checks
 * its targets first: its answers (the 404 naming what is missing, the 400 of a kit or a tracked product, the 409 of
 * an inactive location) are that path's, and it writes if what failed has changed since.
 */
export function uncheckedOrChecked<T>(
  body: PackedAmount & TrackedInput,
  unchecked: (quantity: number, now: string) => Promise<T>,
  checked: () => Promise<T>,
): Promise<T> {
  const quantity = plainQuantity(body);
  if (quantity === undefined) return checked();
  return unchecked(quantity, new Date().toISOString()).catch((error) =>
    answerFor(error, { precondition_refused: checked }),
  );
}

/** What a one-product write resolved before its batch; `guard` checks in the batch what was not read. */
export interface StockWriteTarget {
  guard?: Statement;
  lotId: string | undefined;
  /** The serial numbers it moves, and where they must be. */
  serials: { numbers: readonly string[]; expect: SerialsExpected } | null;
  expiredHolds: readonly HoldRecord[];
}

/** What a plain write moves: no lot, no serial numbers, and no expired hold to release (its guard refuses one). */
export const untrackedStock = { lotId: undefined, serials: null, expiredHolds: [] } as const;

/** Where serial numbers must be: not yet in stock (an addition), or at the location they are taken from. */
export type SerialsExpected = Parameters<typeof serialProblems>[3];

/**
 * The tracked stock a one-product write names, checked against the product's tracking (400) and the
 * serials' whereabouts (409); a new lot number on an addition creates the lot.
 */
export async function resolveTrackedStock(
  tdb: TenantDb,
  product: TrackedProduct,
  input: TrackedInput & { quantity: number },
  expect: SerialsExpected,
) {
  assertTracking(trackingProblems(product, input, input.quantity));
  const { lotNumber } = input;
  const lotOf = await resolveLots(
    tdb,
    lotNumber === undefined ? [] : [{ ...input, productId: product.id, sku: product.sku, lotNumber }],
    expect.mode,
  );
  const serials = input.serialNumbers ?? null;
  if (serials) await assertSerials(tdb, product.id, serials, expect);
  return { lotId: lotNumber === undefined ? undefined : lotOf(product.id, lotNumber), serials };
}

/**
 * The answer a rolled-back stock batch means: too little available where it takes, past the ceiling where
 * it adds, or serial numbers a concurrent write moved (by the CHECK it broke); any other error is thrown as it is.
 */
export async function answerFailedStockWrite(
  tdb: TenantDb,
  error: unknown,
  change: {
    take: { level: Level; quantity: number };
    add: { level: Level; quantity: number };
    /** The serial numbers it moves (serial-tracked products), and where they must be. */
    serials: { productId: string; numbers: readonly string[]; expect: SerialsExpected } | null;
  },
): Promise<unknown> {
  const { take, add, serials } = change;
  return answerFor(error, {
    ...shortage(() => insufficientStock(tdb, take.level, take.quantity, "quantity")),
    stock_levels_on_hand_max_check: () =>
      overCeiling(tdb, [{ ...add.level, quantity: add.quantity, field: "quantity" }]),
    ...(serials && {
      serial_numbers_on_hand_check: () =>
        serialClash(tdb, serials.productId, serials.numbers, serials.expect),
    }),
  });
}
