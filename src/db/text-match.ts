import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/**
 * `column` contains `search`, case-insensitively (SQLite's LIKE, ASCII): the one rule of the lists' `search`.
 * LIKE's wildcards in it are literal, so `A_1` finds `A_1` and not `AB1`.
 */
export function contains(column: SQLiteColumn, search: string): SQL {
  const escaped = search.replace(/[\\%_]/g, (ch) => `\\${ch}`);
  return sql`${column} like ${`%${escaped}%`} escape '\\'`;
}
