import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { insufficientStock, shortage } from "./insufficient-stock";
import { overCeiling } from "./level-ceiling";
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

// What an adjustment and a transfer share: the lot and serial numbers they name, checked before their
// batch, and the 409 a failed batch means.

/** Where serial numbers must be: not yet in stock (an addition), or at the location they are taken from. */
type SerialsExpected = Parameters<typeof serialProblems>[3];

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
    serials: { productId: string; numbers: readonly string[] | null; expect: SerialsExpected };
  },
): Promise<unknown> {
  const { take, add, serials } = change;
  const { numbers } = serials;
  return answerFor(error, {
    ...shortage(() => insufficientStock(tdb, take.level, take.quantity, "quantity")),
    stock_levels_on_hand_max_check: () =>
      overCeiling(tdb, [{ ...add.level, quantity: add.quantity, field: "quantity" }]),
    ...(numbers && {
      serial_numbers_on_hand_check: () => serialClash(tdb, serials.productId, numbers, serials.expect),
    }),
  });
}
