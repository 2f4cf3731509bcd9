import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Online tenant moves (docs/decisions/scale-out.md): one row per move, driven by a TenantMover Durable
// Object; at most one unfinished move per tenant.
export const tenantMoves = sqliteTable(
  "tenant_moves",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    fromShard: text("from_shard").notNull(),
    toShard: text("to_shard").notNull(),
    status: text("status", { enum: ["copying", "verifying", "switching", "done", "failed"] })
      .notNull()
      .default("copying"),
    reason: text("reason"),
    rowsCopied: integer("rows_copied").notNull().default(0),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    finishedAt: text("finished_at"),
  },
  (t) => [
    uniqueIndex("tenant_moves_one_active_idx")
      .on(t.tenantId)
      .where(sql`${t.status} not in ('done', 'failed')`),
    index("tenant_moves_tenant_idx").on(t.tenantId, t.createdAt),
    check(
      "tenant_moves_status_check",
      sql`${t.status} in ('copying', 'verifying', 'switching', 'done', 'failed')`,
    ),
  ],
);
