import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenantRowKey, timestamps } from "./columns";

// A brand a third-party logistics tenant stores and ships for: its products, and through them their stock,
// orders and shipments, belong to it (docs/decisions/merchants.md).
export const merchants = sqliteTable(
  "merchants",
  {
    ...tenantRowKey(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("merchants_tenant_code_unique").on(t.tenantId, t.code),
    index("merchants_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
  ],
);
