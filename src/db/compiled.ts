import { is, Param, Placeholder, SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { type BoundStatement, type DrizzleQuery, type ResultOf, rowsOf } from "./batch";
import type { PlatformDb, TenantDatabase, TenantDb } from "./client";

// Statements compiled once per isolate (docs/decisions/compiled-statements.md): a hot
// statement's SQL text is built the first time its variant runs, with a placeholder for every value, and each
// request only binds its values. Building and flattening drizzle's SQL was a third of a write's CPU.

/**
 * What a request binds into a compiled statement, by name (never part of the SQL text): D1 values, or what a
 * column takes where the statement gives it to one (a JSON column's object).
 */
export type Values = Record<string, unknown>;

/** What changes a compiled statement's SQL text (a flag, a count): every field is part of the cache key. */
export type Variant = Record<string, boolean | number | string>;

/** Built only to compile: drizzle prepares through its client, and this one never runs anything. */
const compiler = drizzle({ prepare: () => ({}) } as unknown as D1Database) as TenantDatabase;
const dialect = new SQLiteAsyncDialect();

// The handle's tenant and merchant, bound per request like the values; no value is named with a `$`.
const TENANT = "$tenant";
const MERCHANT = "$merchant";

/** A tenant handle whose tenant (and merchant, for a merchant-scoped variant) are placeholders. */
const placeholderScope = (merchantScoped: boolean): TenantDb => ({
  db: compiler,
  tenantId: sql.placeholder(TENANT) as unknown as string,
  ...(merchantScoped ? { merchantId: sql.placeholder(MERCHANT) as unknown as string } : {}),
  shard: "",
  committedEvents: [],
  consistencyToken: () => undefined,
});

const placeholders = <V extends Values>(values: V) =>
  Object.fromEntries(
    Object.keys(values).map((name) => {
      if (name.startsWith("$")) throw new Error(`${name}: a value's name never starts with $`);
      return [name, sql.placeholder(name)];
    }),
  ) as unknown as V;

/**
 * Each parameter of a compiled statement, given the request's values: a placeholder's value, through its column's
 * encoder where it was given to a column (null stays null, as drizzle binds it), or the constant compiled in.
 */
const bind = (params: readonly unknown[], values: Values) =>
  params.map((p) => {
    const placeholder =
      is(p, Param) && is(p.value, Placeholder) ? p.value : is(p, Placeholder) ? p : undefined;
    if (!placeholder) return p;
    if (!(placeholder.name in values)) throw new Error(`No value for ${placeholder.name}`);
    const value = values[placeholder.name];
    return is(p, Param) && value !== null ? p.encoder.mapToDriverValue(value) : value;
  });

type Compilable = DrizzleQuery | SQL;

/** A statement's SQL text and parameters (placeholders among them), and how its D1 result is read. */
interface Template {
  sql: string;
  params: unknown[];
  read: (r: D1Result) => unknown;
}

function templateOf(statement: Compilable): Template {
  if (is(statement, SQL)) return { ...dialect.sqlToQuery(statement), read: (r) => r };
  const query = statement.prepare();
  return { ...query.getQuery(), read: rowsOf(query) };
}

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
  const templates = new Map<string, Template>();
  return (tdb, values, variant = {} as K) => {
    const merchantScoped = tdb.merchantId !== undefined;
    const key = `${merchantScoped ? "merchant" : "tenant"}${JSON.stringify(variant)}`;
    let template = templates.get(key);
    if (!template) {
      template = templateOf(build(placeholderScope(merchantScoped), placeholders(values), variant));
      templates.set(key, template);
    }
    const bound = { ...values, [TENANT]: tdb.tenantId, [MERCHANT]: tdb.merchantId ?? null };
    return {
      kind: "bound",
      query: { sql: template.sql, params: bind(template.params, bound) },
      read: template.read as (r: D1Result) => ResultOf<S>,
    };
  };
}

/**
 * A platform statement (no tenant: the API key index every request reads), compiled once per isolate and bound per
 * request; `build` must not look at a value, as for `compiled`. Run it through the request's platform handle.
 */
export function compiledOnPlatform<V extends Values, S extends Compilable>(
  build: (db: PlatformDb, values: V) => S,
): (values: V) => BoundStatement<ResultOf<S>> {
  let template: Template | undefined;
  return (values) => {
    template ??= templateOf(build(compiler as PlatformDb, placeholders(values)));
    return {
      kind: "bound",
      query: { sql: template.sql, params: bind(template.params, values) },
      read: template.read as (r: D1Result) => ResultOf<S>,
    };
  };
}

/** The rows of one multi-row insert as values (`0.id`, `0.sku`, `1.id`, ...) and the variant naming their shape. */
function rowValues(rows: readonly object[]) {
  const fields = Object.keys(rows[0] ?? {}).sort();
  const values: Values = {};
  rows.forEach((row, i) => {
    if (Object.keys(row).length !== fields.length) throw new Error("Rows of one insert have the same fields");
    for (const field of fields) values[`${i}.${field}`] = (row as Record<string, unknown>)[field];
  });
  return { values, variant: { rows: rows.length, fields: fields.join(",") } };
}

/**
 * `insert into <table> values <rows>`, compiled once per number of rows and set of fields (every row has the
 * first's fields; one without a value fails loudly).
 */
export function compiledInsert<T extends SQLiteTable>(table: T) {
  const statement = compiled((tdb, v: Values, k: { rows: number; fields: string }) =>
    tdb.db
      .insert(table)
      .values(
        Array.from(
          { length: k.rows },
          (_, i) =>
            Object.fromEntries(k.fields.split(",").map((f) => [f, v[`${i}.${f}`]])) as T["$inferInsert"],
        ),
      ),
  );
  return (tdb: TenantDb, rows: readonly T["$inferInsert"][]) => {
    const { values, variant } = rowValues(rows);
    return statement(tdb, values, variant);
  };
}
