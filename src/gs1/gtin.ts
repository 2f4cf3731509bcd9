import { type SQL, sql } from "drizzle-orm";
import { gs1CheckDigit } from "./check-digit";

// A product barcode of only digits with one of these lengths is read as a GTIN (GTIN-8, UPC-A/GTIN-12,
// EAN-13, GTIN-14) and must carry its check digit; other digit strings are internal codes, accepted as they are.
export const GTIN_LENGTHS = [8, 12, 13, 14] as const;

/** What is wrong with `barcode` read as a GTIN, or null when it is none or a valid one. */
export function gtinProblem(barcode: string): string | null {
  if (!/^\d+$/.test(barcode) || !(GTIN_LENGTHS as readonly number[]).includes(barcode.length)) return null;
  const expected = gs1CheckDigit(barcode.slice(0, -1));
  return Number(barcode.at(-1)) === expected
    ? null
    : `${barcode} is not a valid GTIN-${barcode.length}: its check digit should be ${expected}`;
}

/**
 * Whether the stored `column` is a GTIN with a wrong check digit, in SQL (the read-only check of stored
 * products). Left-padded to 14 digits, every GTIN length weighs its digits alike (3 on odd positions).
 */
export function badGtinSql(column: SQL | { getSQL(): SQL }): SQL {
  const padded = sql`substr('00000000000000' || ${column}, -14)`;
  const digit = (position: number) =>
    sql`cast(substr(${padded}, ${sql.raw(String(position))}, 1) as integer)`;
  const weighted = sql.join(
    Array.from({ length: 13 }, (_, i) => sql`${sql.raw(i % 2 === 0 ? "3" : "1")} * ${digit(i + 1)}`),
    sql` + `,
  );
  return sql`(length(${column}) in (8, 12, 13, 14) and ${column} not glob '*[^0-9]*'
    and (10 - (${weighted}) % 10) % 10 <> ${digit(14)})`;
}
