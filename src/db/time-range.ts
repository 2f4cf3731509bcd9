import { gte, lt, lte, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

const DAY_MS = 86_400_000;
const isDateOnly = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const iso = (value: string, plusMs = 0) => new Date(Date.parse(value) + plusMs).toISOString();

/**
 * Conditions keeping an ISO timestamp column between a list filter's `from` and `to` (each a date or a
 * timestamp, validated by the query schema): a date `from` starts at its midnight (UTC), a date `to`
 * includes that whole day, a timestamp `to` is inclusive.
 */
export function between(column: SQLiteColumn, from: string | undefined, to: string | undefined): SQL[] {
  return [
    ...(from ? [gte(column, iso(from))] : []),
    ...(to ? [isDateOnly(to) ? lt(column, iso(to, DAY_MS)) : lte(column, iso(to))] : []),
  ];
}
