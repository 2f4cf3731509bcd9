import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import type { Bindings } from "../env";
import { D1Stats, instrumentD1 } from "./d1-stats";
import * as schema from "./schema";

export type Database = DrizzleD1Database<typeof schema> & { $client: D1Database };

/** A database handle already bound to one tenant: repositories filter every query by `tenantId`. */
export interface TenantDb {
  readonly db: Database;
  readonly tenantId: string;
  /** Outbox events committed through this handle (recorded by runBatch), handed to the queue after the response. */
  readonly committedEvents: string[];
}

function open(env: Bindings, stats: D1Stats): Database {
  return drizzle(instrumentD1(env.DB, stats), { schema });
}

/**
 * The seam for tenant placement: today every tenant lives in the `DB` binding; a tenant could move
 * to its own D1 database (sharding by tenant) by changing only this function.
 */
export function dbFor(env: Bindings, tenantId: string, stats = new D1Stats()): TenantDb {
  return { db: open(env, stats), tenantId, committedEvents: [] };
}

/** The handle for platform-wide tables (tenants, users, API key lookup). */
export function platformDb(env: Bindings, stats = new D1Stats()): Database {
  return open(env, stats);
}
