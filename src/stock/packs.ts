import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { productPackagings, products } from "../db/schema/tenant";
import { inTenant, inTenantAmong } from "../db/tenant-scope";
import { assertFound } from "../http/errors";
import { type FieldRule, withRules } from "../http/field-rules";
import { validationError } from "../http/validation";
import type { LineTarget } from "./line-targets";

// Pack sizes: wherever a stock quantity is given, `{packaging: "case", packs: 3}` may stand for it. Stock, the
// ledger and events stay in base units: a request's packs become units here, before anything else reads them,
// and a stock list shows units as whole packs and the remainder. These are the only conversions.

/** The largest quantity any stock write takes, in base units. */
export const MAX_UNITS = 1_000_000_000;

/** A packaging's code, as a product lists it and a quantity names it. */
export const PackagingCode = z
  .string({ error: "must be a packaging code" })
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, "must be 1-32 letters, digits, - or _")
  .openapi({ example: "case" });

/** Packs of a quantity that only adds or moves stock; an adjustment's are signed like its quantity. */
export const Packs = z
  .number({ error: "must be a positive integer" })
  .int("must be a positive integer")
  .min(1, "must be a positive integer")
  .max(MAX_UNITS, `must be at most ${MAX_UNITS}`);

/** A stock quantity as a caller gives it: units, or whole packs of one of the product's packagings. */
export interface PackedAmount {
  quantity?: number;
  packaging?: string;
  packs?: number;
}

/** Packs of an absolute figure (a level's on hand to set, a count's counted): 0 is a figure too. */
export const PacksOrNone = z
  .number({ error: "must be a non-negative integer" })
  .int("must be a non-negative integer")
  .min(0, "must be a non-negative integer")
  .max(MAX_UNITS, `must be at most ${MAX_UNITS}`);

/** `packaging` and `packs`, standing for the endpoint's amount field `field` (`quantity`, `onHand`, `counted`). */
export const packFields = (field = "quantity", packs: z.ZodType<number> = Packs) => ({
  packaging: PackagingCode.optional().openapi({
    description: `Instead of \`${field}\`: a packaging code of the product (with \`packs\`).`,
  }),
  packs: packs
    .optional()
    .openapi({ description: `With \`packaging\`: how many packs (${field} = packs x its size).` }),
});

/**
 * The fields that give a quantity (`quantity` as the endpoint defines it, or `packaging` and `packs`); an
 * object that spreads them is wrapped in `withOneAmount`.
 */
export const amountFields = <Q extends z.ZodType<number>>(quantity: Q, packs: z.ZodType<number> = Packs) => ({
  quantity: quantity.optional(),
  ...packFields("quantity", packs),
});

/**
 * Exactly one of the amount (`field`, `quantity` unless named) or `packaging` with `packs`: both, neither or
 * half of the pair is a 400. Not `required`: at most one (the amount may come from elsewhere, a scanned pack).
 */
export function oneAmount(
  amount: { packaging?: string; packs?: number } & Record<string, unknown>,
  ctx: z.RefinementCtx,
  required = true,
  field = "quantity",
) {
  const packed = amount.packaging !== undefined || amount.packs !== undefined;
  const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", message, path: [path] });
  if (amount[field] !== undefined && packed) issue(field, `give ${field} or packaging and packs, not both`);
  else if (amount.packaging !== undefined && amount.packs === undefined)
    issue("packs", "is required with packaging");
  else if (amount.packs !== undefined && amount.packaging === undefined)
    issue("packaging", "is required with packs");
  else if (required && amount[field] === undefined && !packed)
    issue(field, "is required (or packaging and packs)");
}

/** `oneAmount` as a rule the document states too: the pair needs each other, and one of it or `field`. */
export function oneAmountRule<T extends PackedAmount>({
  required = true,
  field = "quantity",
}: {
  required?: boolean;
  field?: string;
} = {}): FieldRule<T> {
  const pair = { dependentRequired: { packaging: ["packs"], packs: ["packaging"] } };
  return {
    check: (amount, ctx) => oneAmount(amount as PackedAmount & Record<string, unknown>, ctx, required, field),
    states: required
      ? { ...pair, oneOf: [{ required: [field] }, { required: ["packaging", "packs"] }] }
      : { ...pair, not: { required: [field, "packaging"] } },
  };
}

/** An object with `amountFields` (or `packFields`), checked by `oneAmount` and stating it, after `rules`. */
export const withOneAmount = <S extends z.ZodType<PackedAmount>>(
  schema: S,
  options: { required?: boolean; field?: string } = {},
  ...rules: FieldRule<z.output<S>>[]
) => withRules(schema, ...rules, oneAmountRule(options));

const PackCount = z.object({ packs: z.number().int(), remainder: z.number().int() });

/** A stock level in packs of one packaging (`?packaging=`), or null when its product has no such packaging. */
export const LevelInPacks = z
  .object({
    packaging: z.string(),
    size: z.number().int().openapi({ description: "Base units in one pack." }),
    onHand: PackCount,
    reserved: PackCount,
    available: PackCount,
  })
  .nullable()
  .openapi("StockLevelInPacks", {
    description:
      "With ?packaging=: the level as whole packs and the units left over (null: the product has no such packaging).",
  });
export type LevelInPacks = z.infer<typeof LevelInPacks>;

/** Stock levels shown also in packs of `code` (each product's own size; null where it has none). */
export async function levelsInPacks<
  L extends { productId: string; onHand: number; reserved: number; available: number },
>(tdb: TenantDb, levels: readonly L[], code: string): Promise<(L & { packs: LevelInPacks })[]> {
  const known = await packagingSizes(
    tdb,
    levels.map((l) => l.productId),
  );
  return levels.map((level) => {
    const size = known.get(level.productId)?.sizes.get(code);
    return {
      ...level,
      packs:
        size === undefined
          ? null
          : {
              packaging: code,
              size,
              onHand: packsOf(level.onHand, size),
              reserved: packsOf(level.reserved, size),
              available: packsOf(level.available, size),
            },
    };
  });
}

/** Units in `packs` packs of `size` units. */
export const unitsOf = (packs: number, size: number) => packs * size;

/** `units` as whole packs of `size` and the units left over. */
export const packsOf = (units: number, size: number) => ({
  packs: Math.trunc(units / size),
  remainder: units % size,
});

/** The packagings of `productIds` with the products' SKUs, as rows (put it in the caller's read batch). */
export function packagingRows(tdb: TenantDb, productIds: readonly string[]) {
  return tdb.db
    .select({
      productId: products.id,
      sku: products.sku,
      code: productPackagings.code,
      quantity: productPackagings.quantity,
    })
    .from(products)
    .leftJoin(
      productPackagings,
      inTenant(tdb, productPackagings, eq(productPackagings.productId, products.id)),
    )
    .where(inTenantAmong(tdb, products, [...new Set(productIds)]));
}

/** The packagings of `productIds` (code -> size, per product) and the products' SKUs. */
export async function packagingSizes(tdb: TenantDb, productIds: readonly string[]) {
  return sizesOf(await packagingRows(tdb, productIds));
}

/** `packagingRows` by product: code -> size, and the product's SKU. */
export function sizesOf(rows: Awaited<ReturnType<typeof packagingRows>>) {
  const sizes = new Map<string, { sku: string; sizes: Map<string, number> }>();
  for (const row of rows) {
    const product = sizes.get(row.productId) ?? { sku: row.sku, sizes: new Map() };
    if (row.code !== null && row.quantity !== null) product.sizes.set(row.code, row.quantity);
    sizes.set(row.productId, product);
  }
  return sizes;
}

/** A product's packaging sizes by code, as `packagingSizes` reads them. */
export type ProductPackagings = { sku: string; sizes: Map<string, number> };

/**
 * One amount in base units: `quantity` as given, or `packs` x the size of the named packaging of `product`; a
 * packaging the product lacks, or more than MAX_UNITS units, is a problem naming the field (`at`: `lines[2].`).
 */
export function convertAmount(
  amount: PackedAmount,
  product: ProductPackagings,
  at: string,
): { quantity: number } | { problem: string } {
  const { packaging, packs } = amount;
  if (packaging === undefined || packs === undefined) return { quantity: amount.quantity ?? 0 };
  const size = product.sizes.get(packaging);
  if (size === undefined)
    return { problem: `${at}packaging: product ${product.sku} has no packaging ${packaging}` };
  const quantity = unitsOf(packs, size);
  if (Math.abs(quantity) > MAX_UNITS)
    return {
      problem: `${at}packs: ${packs} x ${packaging} (${size}) is ${quantity} units, more than ${MAX_UNITS}`,
    };
  return { quantity };
}

/** A level to set's on hand as an amount to convert (`onHand`, or packs of a packaging). */
export const onHandAmount = (level: {
  onHand?: number;
  packaging?: string;
  packs?: number;
}): PackedAmount => ({
  quantity: level.onHand,
  packaging: level.packaging,
  packs: level.packs,
});

export type InUnits<T> = Omit<T, "packaging" | "packs"> & { quantity: number };

/**
 * Each item's quantity in base units (`convertAmount`), with one read for all items and only when one names a
 * packaging: a problem is a 400 naming the field (`field(i)` is the item's path prefix, `lines[2].`), a product
 * that does not exist a 404. Callers have run `oneAmount`, so each item has one or the other.
 */
export async function inBaseUnits<T extends PackedAmount & { productId: string }>(
  tdb: TenantDb,
  items: readonly T[],
  field: (index: number) => string = () => "",
): Promise<InUnits<T>[]> {
  const packed = packedProducts(items);
  return toBaseUnits(items, packed.length ? await packagingSizes(tdb, packed) : new Map(), field);
}

/** The products whose packagings `items` name: none, and no read, when every item gives units. */
export const packedProducts = (items: readonly (PackedAmount & { productId: string })[]) =>
  items.flatMap((item) => (item.packaging === undefined ? [] : [item.productId]));

/** `inBaseUnits` once the packagings are read (`known`: `sizesOf` the packed products' `packagingRows`). */
export function toBaseUnits<T extends PackedAmount & { productId: string }>(
  items: readonly T[],
  known: ReadonlyMap<string, ProductPackagings>,
  field: (index: number) => string = () => "",
): InUnits<T>[] {
  const packed = items.filter((item) => item.packaging !== undefined);
  assertFound(
    [...new Set(packed.map((item) => item.productId))].flatMap((id) =>
      known.has(id)
        ? []
        : [`${field(items.findIndex((item) => item.productId === id))}productId: product ${id} not found`],
    ),
  );
  const problems: string[] = [];
  const converted = items.map((item, i) => {
    const { packaging: _p, packs: _n, ...rest } = item;
    const product = known.get(item.productId) ?? { sku: "", sizes: new Map() };
    const amount = convertAmount(item, product, field(i));
    if ("problem" in amount) problems.push(amount.problem);
    return { ...rest, quantity: "quantity" in amount ? amount.quantity : 0 };
  });
  if (problems.length) throw validationError(problems);
  return converted;
}

/**
 * A batch's lines in base units (`convertAmount`), each against the product its target resolved: a line whose
 * packaging fails becomes a 400 target naming the problem, so a batch judges it like any other bad line.
 */
export async function linesInBaseUnits(
  tdb: TenantDb,
  lines: readonly PackedAmount[],
  targets: readonly LineTarget[],
): Promise<{ targets: LineTarget[]; quantities: number[] }> {
  const productOf = (i: number) => {
    const target = targets[i];
    return target && "product" in target ? target.product.id : undefined;
  };
  const packedIds = lines.flatMap((line, i) => (line.packaging !== undefined ? (productOf(i) ?? []) : []));
  const known = packedIds.length
    ? await packagingSizes(tdb, packedIds)
    : new Map<string, ProductPackagings>();
  const quantities: number[] = [];
  const converted = targets.map((target, i): LineTarget => {
    const line = lines[i] as PackedAmount;
    const amount = convertAmount(line, known.get(productOf(i) ?? "") ?? { sku: "", sizes: new Map() }, "");
    quantities.push("quantity" in amount ? amount.quantity : 0);
    return "problem" in amount && "product" in target ? { status: 400, errors: [amount.problem] } : target;
  });
  return { targets: converted, quantities };
}
