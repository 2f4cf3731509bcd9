/** A shard's binding name: `SHARD_0`, `SHARD_1`, ... (wrangler.toml). */
export type ShardName = `SHARD_${number}`;

/** The D1 bindings (wrangler.toml): read by src/db only, never by a module outside it. */
export interface DatabaseBindings {
  /** The platform tables: tenants and the directory, users, memberships, refresh tokens, API keys. */
  PLATFORM: D1Database;
  /** Every tenant's tables, each tenant on one shard (docs/decisions/scale-out.md). */
  [shard: ShardName]: D1Database;
}
