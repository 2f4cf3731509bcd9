import { z } from "@hono/zod-openapi";

// Money travels as a JSON number with at most 4 decimals and is stored as integer ten-thousandths,
// so sums and products are exact integer arithmetic.
const MAX_MONEY = 1_000_000_000;
/** The largest order total, 2^53 - 1 ten-thousandths: every total is a safe integer in ten-thousandths. */
export const MAX_ORDER_TOTAL = e4Text(BigInt(Number.MAX_SAFE_INTEGER));
/** Bits of the largest amount in ten-thousandths (10^13 < 2^44), for sums cut into slices. */
export const MONEY_E4_BITS = Math.ceil(Math.log2(MAX_MONEY * 10_000 + 1));
const DECIMAL = /^(\d+)(?:\.(\d{1,4}))?$/;

/** 19.99 -> 199900. Returns undefined when the number has more than 4 decimals or is not plain. */
export function toE4(value: number): number | undefined {
  const match = DECIMAL.exec(Math.abs(value).toString());
  if (!match) return undefined;
  const units = Number(match[1]) * 10_000 + Number((match[2] ?? "").padEnd(4, "0"));
  return value < 0 ? -units : units;
}

/** 199900 -> 19.99 */
export function fromE4(units: number): number {
  return units / 10_000;
}

declare global {
  interface JSON {
    // ES2025 (JSON.parse source text access); workerd and Node 22 have it, TypeScript's ES2023 lib does not.
    rawJSON(text: string): ExactNumber;
    isRawJSON(value: unknown): value is ExactNumber;
  }
}

/** A number that JSON.stringify writes digit for digit (`rawJSON` is its text): only for responses and CSV. */
export interface ExactNumber {
  readonly rawJSON: string;
}

/** 29999999969997000000003n -> "2999999996999700000.0003" */
export function e4Text(units: bigint): string {
  const magnitude = units < 0n ? -units : units;
  const decimals = String(magnitude % 10_000n)
    .padStart(4, "0")
    .replace(/0+$/, "");
  return `${units < 0n ? "-" : ""}${magnitude / 10_000n}${decimals ? `.${decimals}` : ""}`;
}

/**
 * A sum or product of amounts for a response, exact: under `name` the JSON number digit for digit (a double rounds
 * past 2^53 and already misprints the fourth decimal above about 2 * 10^11: 898999999999.9101 printed as
 * 898999999999.9102), and under `<name>Exact` the same as text, since JavaScript's JSON.parse (the web app's among
 * them) reads the number into a double anyway.
 */
export function exactMoneyWithText<N extends string>(
  name: N,
  units: bigint | number,
): Record<N, ExactNumber> & Record<`${N}Exact`, string> {
  const text = e4Text(BigInt(units));
  return { [name]: JSON.rawJSON(text), [`${name}Exact`]: text } as Record<N, ExactNumber> &
    Record<`${N}Exact`, string>;
}

export const fromE4OrNull = (units: number | null): number | null => (units === null ? null : fromE4(units));

/** A non-negative amount with at most 4 decimals, up to 1,000,000,000. */
export const Money = z
  .number({ error: "must be a number" })
  .min(0, "must not be negative")
  .max(MAX_MONEY, `must be at most ${MAX_MONEY}`)
  .refine((value) => toE4(value) !== undefined, "must have at most 4 decimals")
  .openapi({ example: 19.99 });

/** A response amount from exactMoneyWithText: documented as the number it is in the JSON. */
export const ExactMoney = z
  .custom<ExactNumber>((value) => JSON.isRawJSON(value))
  .openapi({ type: "number", description: "Exact, at most 4 decimals, however large.", example: 1234.5 });

/** The `<name>Exact` companion of an ExactMoney field: the same amount as decimal text. */
export const ExactMoneyText = z.string().openapi({
  description:
    "The same amount as decimal text, digit for digit (at most 4 decimals): for readers whose JSON numbers are " +
    "doubles (JavaScript), which round sums past 2^53 ten-thousandths.",
  pattern: "^-?\\d+(\\.\\d{1,4})?$",
  example: "1234.5",
});
