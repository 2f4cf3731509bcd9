import type { DatabaseBindings, ShardName } from "./bindings";

const SHARD = /^SHARD_(\d+)$/;
const numberOf = (shard: string) => Number(SHARD.exec(shard)?.[1]);

/**
 * The shards wrangler.toml declares (`SHARD_0`, `SHARD_1`, ...), in order: adding a shard is a binding,
 * not a code change.
 */
export function shardNames(env: DatabaseBindings): ShardName[] {
  return (Object.keys(env).filter((name) => SHARD.test(name)) as ShardName[]).sort(
    (a, b) => numberOf(a) - numberOf(b),
  );
}

export function isShard(env: DatabaseBindings, name: string): name is ShardName {
  return SHARD.test(name) && name in env;
}

/** The D1 binding of a shard named by the directory. */
export function shardDatabase(env: DatabaseBindings, shard: string): D1Database {
  const database = isShard(env, shard) ? env[shard] : undefined;
  if (!database) throw new Error(`No D1 binding for shard ${shard}`);
  return database;
}
