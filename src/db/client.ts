import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import type { DatabaseBindings } from "./bindings";
import { D1Stats, instrumentD1 } from "./d1-stats";
import * as platformSchema from "./schema/platform";
import * as tenantSchema from "./schema/tenant";

// The seam between platform data and tenant data (src/db/README.md): `platformDb` is the only way to
// platform tables, `dbFor` the only way to a tenant's tables, and where a tenant lives is decided here
// alone. Today the platform and every tenant share the `DB` binding.

/** The platform tables' database (tenants, users, memberships, refresh tokens, the API key index). */
export type PlatformDb = DrizzleD1Database<typeof platformSchema> & { $client: D1Database };

/** A database holding tenant tables; every query through it is limited to one tenant (`inTenant`). */
export type TenantDatabase = DrizzleD1Database<typeof tenantSchema> & { $client: D1Database };

/** A tenant's database handle, bound to that tenant: repositories filter every query by `tenantId`. */
export interface TenantDb {
  readonly db: TenantDatabase;
  readonly tenantId: string;
  /** Outbox events committed through this handle (recorded by runBatch), handed to the queue after the response. */
  readonly committedEvents: string[];
}

/** Platform tables seen from one tenant (its members, its API keys): rows filtered by `tenantId`. */
export interface PlatformScope {
  readonly db: PlatformDb;
  readonly tenantId: string;
}

/** The handle for platform tables. */
export function platformDb(env: DatabaseBindings, stats = new D1Stats()): PlatformDb {
  return drizzle(instrumentD1(env.DB, stats), { schema: platformSchema });
}

/** The handle for one tenant's tables, wherever that tenant is placed. */
export async function dbFor(
  env: DatabaseBindings,
  tenantId: string,
  stats = new D1Stats(),
): Promise<TenantDb> {
  const db = drizzle(instrumentD1(env.DB, stats), { schema: tenantSchema });
  return { db, tenantId, committedEvents: [] };
}

/**
 * Every database holding tenant tables, for maintenance that spans tenants (the cron sweeps) and
 * nothing else: a request's work goes through `dbFor`.
 */
export function tenantDatabases(env: DatabaseBindings): TenantDatabase[] {
  return [drizzle(env.DB, { schema: tenantSchema })];
}

/** Throws unless the platform database and every tenant database answer (GET /health). */
export async function pingDatabases(env: DatabaseBindings): Promise<void> {
  await Promise.all([env.DB].map((database) => database.prepare("select 1").first()));
}
