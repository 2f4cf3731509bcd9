import { fillPlaceholders, is, SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { BoundStatement, DrizzleQuery, ResultOf } from "./batch";
import type { TenantDatabase, TenantDb } from "./client";

// Statements compiled once per isolate (docs/decisions/compiled-statements.md): a hot
// statement's SQL text is built the first time its variant runs, with a placeholder for every value, and each
// request only binds its values. Building and flattening drizzle's SQL was a third of a write's CPU.

/** What a request binds into a compiled statement: D1 values by name (never part of the SQL text). */
export type Values = Record<string, string | number | null>;

/** What changes a compiled statement's SQL text (a flag, a count): every field is part of the cache key. */
export type Variant = Record<string, boolean | number | string>;

/** Built only to compile: drizzle prepares through its client, and this one never runs anything. */
const compiler = drizzle({ prepare: () => ({}) } as unknown as D1Database) as TenantDatabase;
const dialect = new SQLiteAsyncDialect();

/** The tenant and merchant a compiled statement is bound to, bound per request like its values. */
const SCOPE_NAMES = ["tenantId", "merchantId"];

/** A tenant handle whose tenant (and merchant, for a merchant-scoped variant) are placeholders. */
const placeholderScope = (merchantScoped: boolean): TenantDb => ({
  db: compiler,
  tenantId: sql.placeholder("tenantId") as unknown as string,
  ...(merchantScoped ? { merchantId: sql.placeholder("merchantId") as unknown as string } : {}),
  shard: "",
  committedEvents: [],
  consistencyToken: () => undefined,
});

const placeholders = <V extends Values>(values: V) =>
  Object.fromEntries(
    Object.keys(values).map((name) => {
      if (SCOPE_NAMES.includes(name)) throw new Error(`${name} is bound from the handle, not a value`);
      return [name, sql.placeholder(name)];
    }),
  ) as unknown as V;

type Compilable = DrizzleQuery | SQL;

/**
 * A statement built once per isolate for each variant and bound per request. `build` writes it as any
 * statement is written (drizzle builders, `inTenant`, the stock kernel), from a tenant handle and values that
 * are placeholders: it must not look at a value (a placeholder is always truthy and never a number), only at
 * the variant. Whether the handle acts for a merchant (`inTenant`'s merchant filter) is always part of the key.
 * The result reads like the statement it stands for: a select's typed rows, a write's D1 result.
 */
export function compiled<V extends Values, S extends Compilable, K extends Variant = Record<never, never>>(
  build: (scope: TenantDb, values: V, variant: K) => S,
): (tdb: TenantDb, values: V, variant?: K) => BoundStatement<ResultOf<S>> {
  const templates = new Map<string, { sql: string; params: unknown[]; read: (r: D1Result) => unknown }>();
  return (tdb, values, variant = {} as K) => {
    const merchantScoped = tdb.merchantId !== undefined;
    const key = `${merchantScoped ? "merchant" : "tenant"}${JSON.stringify(variant)}`;
    let template = templates.get(key);
    if (!template) {
      const statement = build(placeholderScope(merchantScoped), placeholders(values), variant);
      if (is(statement, SQL)) {
        template = { ...dialect.sqlToQuery(statement), read: (r) => r };
      } else {
        const query = statement.prepare();
        template = { ...query.getQuery(), read: (r) => query.mapResult(r, true) };
      }
      templates.set(key, template);
    }
    const bound = { ...values, tenantId: tdb.tenantId, merchantId: tdb.merchantId ?? null };
    return {
      kind: "bound",
      query: { sql: template.sql, params: fillPlaceholders(template.params, bound) },
      read: template.read as (r: D1Result) => ResultOf<S>,
    };
  };
}
