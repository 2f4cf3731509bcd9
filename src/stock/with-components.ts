import { is, SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { inJsonArray } from "../db/batch";
import type { TenantDb } from "../db/client";
import { kitComponents } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";

/** Products named by id, or by a subquery of ids (`withComponents`). */
export type ProductIds = readonly string[] | SQL;

/** `column` among `ids`: one bound list, or the subquery. */
export const productAmong = (column: SQLiteColumn, ids: ProductIds) =>
  is(ids, SQL) ? sql`${column} in ${ids}` : inJsonArray(column, [...new Set(ids)]);

/**
 * The ids `productIds` and the components of the kits among them, as a subquery: what an order reads before its
 * kits are expanded, in the same batch as the kits' composition.
 */
export const withComponents = (tdb: TenantDb, productIds: readonly string[]) =>
  sql`(select value from json_each(${JSON.stringify([...new Set(productIds)])}) union
    select ${kitComponents.componentId} from ${kitComponents}
    where ${inTenant(tdb, kitComponents, inJsonArray(kitComponents.kitId, [...new Set(productIds)]))})`;
