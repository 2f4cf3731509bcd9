import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// The audit log's table (docs/decisions/audit-log.md). It exists twice, with one shape: on the platform database
// for what changes there (sign-ins, keys, members, tenants) and on the tenant's shard for what changes there
// (webhooks, settings, merchants, billing), so each entry is written in the same batch as its change. Each store
// keeps its own chain per tenant: `seq` is taken inside the insert (a database has one writer and a batch is
// atomic, so seq is commit order, gapless per tenant; the unique index is the belt), and `hash` is sealed after
// the commit by src/db/audit/chain.ts.

/** The audit table named `name`, for one store's schema. */
export const auditTable = (name: "audit_events") =>
  sqliteTable(
    name,
    {
      id: text("id").primaryKey(),
      tenantId: text("tenant_id").notNull(),
      seq: integer("seq").notNull(),
      action: text("action").notNull(),
      // Who: the credential that acted, and its grantor chain (JSON: the key, the keys above it, the member).
      actorType: text("actor_type", { enum: ["user", "api_key", "platform", "anonymous"] }).notNull(),
      actorId: text("actor_id"),
      actorChain: text("actor_chain", { mode: "json" }).$type<{ type: string; id: string }[]>().notNull(),
      // The merchant the entry concerns (its target's or its actor's): a merchant's member reads these only.
      merchantId: text("merchant_id"),
      targetType: text("target_type").notNull(),
      targetId: text("target_id"),
      before: text("before", { mode: "json" }).$type<Record<string, unknown> | null>(),
      after: text("after", { mode: "json" }).$type<Record<string, unknown> | null>(),
      ip: text("ip"),
      userAgent: text("user_agent"),
      requestId: text("request_id"),
      createdAt: text("created_at").notNull(),
      // The previous entry's hash and this entry's (SHA-256, hex), null until sealed.
      prevHash: text("prev_hash"),
      hash: text("hash"),
    },
    (t) => [
      uniqueIndex(`${name}_seq_unique`).on(t.tenantId, t.seq),
      index(`${name}_tenant_created_idx`).on(t.tenantId, t.createdAt, t.id),
      index(`${name}_unsealed_idx`).on(t.tenantId, t.seq).where(sql`${t.hash} is null`),
      check(`${name}_actor_type_check`, sql`${t.actorType} in ('user', 'api_key', 'platform', 'anonymous')`),
    ],
  );
