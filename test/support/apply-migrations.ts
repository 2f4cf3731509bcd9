import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { shardDatabase, shardNames } from "../../src/db/shards";

// Every test file starts from the real schema, exactly as wrangler applies it: the platform's migrations
// to PLATFORM, the shard migrations to every shard.
await applyD1Migrations(env.PLATFORM, env.TEST_PLATFORM_MIGRATIONS);
for (const shard of shardNames(env))
  await applyD1Migrations(shardDatabase(env, shard), env.TEST_SHARD_MIGRATIONS);
