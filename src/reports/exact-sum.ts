import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

// SQLite sums integers in 64 bits and fails ("integer overflow", a 500) past 2^63, while a stock value reaches
// 10^9 units x 10^13 ten-thousandths (73 bits). So the amount is cut into 8-bit slices: one slice's sum of
// products stays below 2^63 up to 2^25 stock levels at the 10^9-unit ceiling (more rows than a D1 database
// holds), and the slices are joined exactly as a bigint. One aggregate column, read back as text.
const SLICE_BITS = 8;
const SLICE_MASK = 2 ** SLICE_BITS - 1;

function joinSlices(text: unknown): bigint {
  return String(text)
    .split(",")
    .reduce((sum, slice, k) => sum + (BigInt(slice) << BigInt(k * SLICE_BITS)), 0n);
}

/** `sum(factor * amount)` exactly, for non-negative integer amounts below 2^amountBits (null amounts add 0). */
export function exactSumOfProducts(factor: SQLWrapper, amount: SQLWrapper, amountBits: number): SQL<bigint> {
  const slices = Array.from(
    { length: Math.ceil(amountBits / SLICE_BITS) },
    (_, k) =>
      sql`coalesce(sum(${factor} * ((${amount} >> ${sql.raw(String(k * SLICE_BITS))}) & ${sql.raw(String(SLICE_MASK))})), 0)`,
  );
  return sql`${sql.join(slices, sql` || ',' || `)}`.mapWith(joinSlices);
}
