import { z } from "@hono/zod-openapi";

// Money travels as a JSON number with at most 4 decimals and is stored as integer ten-thousandths,
// so sums and products are exact integer arithmetic.
const MAX_MONEY = 1_000_000_000;
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

export const fromE4OrNull = (units: number | null): number | null => (units === null ? null : fromE4(units));

/** A non-negative amount with at most 4 decimals, up to 1,000,000,000. */
export const Money = z
  .number({ error: "must be a number" })
  .min(0, "must not be negative")
  .max(MAX_MONEY, `must be at most ${MAX_MONEY}`)
  .refine((value) => toE4(value) !== undefined, "must have at most 4 decimals")
  .openapi({ example: 19.99 });
