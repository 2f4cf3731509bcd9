import { eq } from "drizzle-orm";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import type { DatabaseBindings } from "./bindings";
import type { ConsistencyToken } from "./consistency-token";
import { D1Stats, instrumentD1 } from "./d1-stats";
import * as platformSchema from "./schema/platform";
import { shardDatabase, shardNames } from "./shards";

// The seam between platform data and tenant data (src/db/README.md): `platformDb` is the only way to
// platform tables, `dbFor` the only way to a tenant's tables. The platform lives in the PLATFORM binding,
// each tenant on the shard the directory (`tenants.shard`) names (docs/decisions/scale-out.md).

// Handles are built per request (each wraps the request's D1 stats and session) without Drizzle's schema
// argument: it only serves the relational `db.query` API, which nothing uses, and extracting its config from
// every table cost about 3 ms of CPU per request (bench/profile.mjs, issue #35).

/** The platform tables' database (tenants, users, memberships, refresh tokens, the API key index). */
export type PlatformDb = DrizzleD1Database & { $client: D1Database };

/** A database holding tenant tables; every query through it is limited to one tenant (`inTenant`). */
export type TenantDatabase = DrizzleD1Database & { $client: D1Database };

/** Where a tenant's tables live, as the directory says. */
export interface Placement {
  readonly id: string;
  readonly shard: string;
}

/** A tenant's database handle, bound to that tenant: repositories filter every query by `tenantId`. */
export interface TenantDb {
  readonly db: TenantDatabase;
  readonly tenantId: string;
  /** Set for a merchant-scoped credential: every query through `inTenant` sees that merchant's rows only. */
  readonly merchantId?: string;
  readonly shard: string;
  /** Outbox events committed through this handle (recorded by runBatch), handed to the queue after the response. */
  readonly committedEvents: string[];
  /** Where what this handle has read or written stands, for the Consistency-Token (undefined before its first query). */
  consistencyToken(): ConsistencyToken | undefined;
}

/** Platform tables seen from one tenant (its members, its API keys): rows filtered by `tenantId`. */
export interface PlatformScope {
  readonly db: PlatformDb;
  readonly tenantId: string;
}

/** The handle for platform tables: always the primary (a replica could still show a revoked key). */
export function platformDb(env: DatabaseBindings, stats = new D1Stats()): PlatformDb {
  return drizzle(instrumentD1(env.PLATFORM, stats));
}

async function placementOf(env: DatabaseBindings, tenantId: string): Promise<Placement> {
  const [row] = await platformDb(env)
    .select({ id: platformSchema.tenants.id, shard: platformSchema.tenants.shard })
    .from(platformSchema.tenants)
    .where(eq(platformSchema.tenants.id, tenantId));
  if (!row) throw new Error(`Tenant ${tenantId} is not in the directory`);
  return row;
}

/**
 * The handle for one tenant's tables, on its shard. A request passes the placement its authentication
 * lookup read with the tenant (no extra round trip); background work passes the id and the directory is
 * read. All its queries run in one D1 session: from `after` (a Consistency-Token of this shard) any
 * replica at least that fresh may answer, otherwise the first query goes to the primary; writes always do.
 * `merchantId` scopes the handle to one merchant's rows (a merchant-scoped credential's request).
 */
export async function dbFor(
  env: DatabaseBindings,
  tenant: string | Placement,
  stats = new D1Stats(),
  after?: ConsistencyToken,
  merchantId?: string,
): Promise<TenantDb> {
  const { id, shard } = typeof tenant === "string" ? await placementOf(env, tenant) : tenant;
  const session = shardDatabase(env, shard).withSession(
    after?.shard === shard ? after.bookmark : "first-primary",
  );
  // Drizzle's D1 driver only prepares statements and runs batches, which a session does as the database does.
  const db = drizzle(instrumentD1(session as unknown as D1Database, stats));
  return {
    db,
    tenantId: id,
    ...(merchantId ? { merchantId } : {}),
    shard,
    committedEvents: [],
    consistencyToken: () => {
      const bookmark = session.getBookmark();
      return bookmark ? { shard, bookmark } : undefined;
    },
  };
}

/**
 * Every shard, for maintenance that spans tenants (the cron sweeps) and nothing else: a request's work
 * goes through `dbFor`.
 */
export function tenantDatabases(env: DatabaseBindings): TenantDatabase[] {
  return shardNames(env).map((shard) => drizzle(shardDatabase(env, shard)));
}

/** Throws unless the platform database and every shard answer (GET /health). */
export async function pingDatabases(env: DatabaseBindings): Promise<void> {
  const databases = [env.PLATFORM, ...shardNames(env).map((shard) => shardDatabase(env, shard))];
  await Promise.all(databases.map((database) => database.prepare("select 1").first()));
}
