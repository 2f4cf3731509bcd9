import { count } from "drizzle-orm";
import { AppError } from "../http/errors";
import type { DatabaseBindings, ShardName } from "./bindings";
import { platformDb } from "./client";
import { tenants } from "./schema/platform";
import { isShard, shardDatabase, shardNames } from "./shards";

/** The tables whose row counts `GET /platform/shards` shows: the ones that grow with a tenant's activity. */
const BIG_TABLES = ["products", "stock_movements", "orders", "outbox_events", "webhook_deliveries"] as const;

/** A shard's size in bytes, as D1 reports it after any statement (`meta.size_after`). */
async function sizeOf(env: DatabaseBindings, shard: ShardName): Promise<number> {
  const result = await shardDatabase(env, shard).prepare("select 1").run();
  return result.meta.size_after ?? 0;
}

async function tenantCounts(env: DatabaseBindings): Promise<Map<string, number>> {
  const rows = await platformDb(env)
    .select({ shard: tenants.shard, tenants: count() })
    .from(tenants)
    .groupBy(tenants.shard);
  return new Map(rows.map((row) => [row.shard, row.tenants]));
}

/**
 * The shard a new tenant is placed on: the one the operator names, or the one holding the least data
 * (ties: the fewest tenants, then the lowest number).
 */
export async function chooseShard(env: DatabaseBindings, requested?: string): Promise<ShardName> {
  const names = shardNames(env);
  if (requested !== undefined) {
    if (isShard(env, requested)) return requested;
    throw new AppError("VALIDATION_FAILED", `shard must be one of ${names.join(", ")}`, {
      errors: [`shard: must be one of ${names.join(", ")}`],
    });
  }
  const [sizes, counts] = await Promise.all([
    Promise.all(names.map((name) => sizeOf(env, name))),
    tenantCounts(env),
  ]);
  const ranked = names
    .map((name, i) => ({ name, size: sizes[i] ?? 0, tenants: counts.get(name) ?? 0 }))
    .sort((a, b) => a.size - b.size || a.tenants - b.tenants);
  return (ranked[0] as { name: ShardName }).name;
}

/** Every shard with its tenant count, size in bytes and the row counts of its big tables. */
export async function describeShards(env: DatabaseBindings) {
  const counts = await tenantCounts(env);
  return Promise.all(
    shardNames(env).map(async (name) => {
      const database = shardDatabase(env, name);
      const results = await database.batch(
        BIG_TABLES.map((table) => database.prepare(`select count(*) as n from ${table}`)),
      );
      const rows = Object.fromEntries(
        BIG_TABLES.map((table, i) => [table, (results[i]?.results[0] as { n: number } | undefined)?.n ?? 0]),
      );
      return {
        name,
        tenants: counts.get(name) ?? 0,
        sizeBytes: results.at(-1)?.meta.size_after ?? 0,
        rows,
      };
    }),
  );
}
