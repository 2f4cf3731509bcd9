import type { tenants } from "../db/schema/platform";

export type TenantRow = typeof tenants.$inferSelect;

export function tenantRecord(row: TenantRow) {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    status: row.status,
    shard: row.shard,
    createdAt: row.createdAt,
  };
}
