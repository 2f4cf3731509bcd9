import { eq } from "drizzle-orm";
import type { PlatformDb } from "../db/client";
import { tenants } from "../db/schema/platform";
import { notFound } from "../http/errors";
import { type TenantRow, tenantRecord } from "./records";

export async function updateTenant(
  db: PlatformDb,
  id: string,
  changes: Partial<Pick<TenantRow, "name" | "plan" | "status">>,
) {
  const [row] = await db
    .update(tenants)
    .set({ ...changes, updatedAt: new Date().toISOString() })
    .where(eq(tenants.id, id))
    .returning();
  if (!row) throw notFound("Tenant");
  return tenantRecord(row);
}
