import { gt, isNull, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { isSellable } from "./sellable";

// Expiry is a calendar date (UTC): a lot expiring on 2026-12-01 is expired from that day on, so it is
// never allocated on its expiry date, and low stock and valuation stop counting it as available then.

/** Today's date in UTC (YYYY-MM-DD), the day expiry is judged against. */
export const today = (now = new Date()) => now.toISOString().slice(0, 10);

/** Whether a lot's expiry date makes it expired on `day`. */
export const isExpired = (expiresAt: string | null, day = today()) => expiresAt !== null && expiresAt <= day;

/** A lot (or no lot: a null expiry) usable on `day`. */
export const unexpired = (expiresAt: SQLiteColumn, day: string): SQL =>
  or(isNull(expiresAt), gt(expiresAt, day)) as SQL;

/**
 * What a level can give to a new order: on hand minus reserved, and nothing once its lot has expired on
 * `day` (its units stay on hand, and reserved units of a lot that expired stay reserved) or while its location
 * is not sellable (src/stock/sellable.ts). Low stock and its event, the reorder filter and the reports all
 * judge availability by it.
 */
export const availableUnits = (
  level: { onHand: SQLiteColumn | SQL; reserved: SQLiteColumn | SQL; locationId: SQLiteColumn },
  expiresAt: SQLiteColumn | SQL,
  day: string,
): SQL =>
  sql`case when ${expiresAt} <= ${day} or not ${isSellable(level.locationId)} then 0 else ${level.onHand} - ${level.reserved} end`;
