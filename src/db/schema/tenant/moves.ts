import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// The shard's side of an online move (src/db/moves): not tenant data, never copied. A tenant with a row in
// moving_tenants has its writes on this shard captured (`capturing`, `draining`) or refused (`fenced`,
// `deleting`) by the move triggers; a tenant that moved away keeps `fenced` here for good, so that a
// request still holding the old placement can never write to this shard again.
export const movingTenants = sqliteTable(
  "moving_tenants",
  {
    tenantId: text("tenant_id").primaryKey(),
    stage: text("stage", { enum: ["capturing", "draining", "fenced", "deleting"] }).notNull(),
  },
  (t) => [
    check("moving_tenants_stage_check", sql`${t.stage} in ('capturing', 'draining', 'fenced', 'deleting')`),
  ],
);

// The rows a moving tenant changed since its copy began (by table and primary key), replayed to the copy.
export const tenantChanges = sqliteTable(
  "tenant_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: text("tenant_id").notNull(),
    tableName: text("table_name").notNull(),
    rowKey: text("row_key").notNull(),
    op: text("op", { enum: ["insert", "update", "delete"] }).notNull(),
  },
  (t) => [
    index("tenant_changes_tenant_idx").on(t.tenantId, t.id),
    index("tenant_changes_row_idx").on(t.tenantId, t.tableName, t.rowKey, t.op),
  ],
);
