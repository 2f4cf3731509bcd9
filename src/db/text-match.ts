import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

const escapeLike = (search: string) => search.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/**
 * `column` contains `search`, case-insensitively (SQLite's LIKE, ASCII): the one rule of the lists' `search`.
 * LIKE's wildcards in it are literal, so `A_1` finds `A_1` and not `AB1`.
 */
export function contains(column: SQLiteColumn, search: string): SQL {
  return sql`${column} like ${`%${escapeLike(search)}%`} escape '\\'`;
}

/** `column` starts with `prefix`, case-insensitively, wildcards literal (as `contains`). */
export function startsWith(column: SQLiteColumn, prefix: string): SQL {
  return sql`${column} like ${`${escapeLike(prefix)}%`} escape '\\'`;
}
