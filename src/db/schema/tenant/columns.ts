import { text } from "drizzle-orm/sqlite-core";

// Columns most tenant tables share, declared once (spread into a table's columns; a function, so every
// table gets builders of its own).

/** A row's id and the tenant it belongs to. */
export const tenantRowKey = () => ({
  id: text("id").primaryKey(),
  tenantId: text("tenant_id").notNull(),
});

/** When a row was created and last changed (ISO 8601, UTC). */
export const timestamps = () => ({
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});
