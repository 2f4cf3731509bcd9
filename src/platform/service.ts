import { asc, count, desc, eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { generateApiKey } from "../auth/api-keys";
import type { Database } from "../db/client";
import { apiKeys, memberships, tenants, users } from "../db/schema";
import { notFound } from "../http/errors";
import { offsetOf, paged } from "../http/pagination";
import { userForMembership } from "../users/accounts";
import type { ListTenantsQuery } from "./schemas";

type TenantRow = typeof tenants.$inferSelect;

function tenantRecord(row: TenantRow) {
  return { id: row.id, name: row.name, plan: row.plan, status: row.status, createdAt: row.createdAt };
}

/**
 * Creates a tenant, its owner (new, or an existing user joined by email) and a first admin key,
 * in one atomic batch.
 */
export async function createTenant(
  db: Database,
  environment: string,
  input: { name: string; plan: TenantRow["plan"]; owner: { email: string; password: string; name: string } },
) {
  const now = new Date().toISOString();
  const tenant: TenantRow = {
    id: uuidv7(),
    name: input.name,
    plan: input.plan,
    status: "active",
    createdAt: now,
    updatedAt: now,
  };
  const { user, isNew } = await userForMembership(db, input.owner, now);
  const key = await generateApiKey(environment);
  const keyId = uuidv7();
  const writeUser = isNew ? [db.insert(users).values(user)] : [];
  await db.batch([
    db.insert(tenants).values(tenant),
    ...writeUser,
    db
      .insert(memberships)
      .values({ tenantId: tenant.id, userId: user.id, role: "owner", createdAt: now, updatedAt: now }),
    db.insert(apiKeys).values({
      id: keyId,
      tenantId: tenant.id,
      name: "Initial admin key",
      prefix: key.prefix,
      keyHash: key.keyHash,
      scopes: ["admin"],
      createdBy: user.id,
      createdAt: now,
    }),
  ]);
  return {
    tenant: tenantRecord(tenant),
    owner: { id: user.id, email: user.email, name: user.name, role: "owner" as const },
    apiKey: { id: keyId, key: key.key, prefix: key.prefix, scopes: ["admin" as const] },
  };
}

const sortColumns = { createdAt: tenants.createdAt, name: tenants.name };

export async function listTenants(db: Database, query: ListTenantsQuery) {
  const order = query.sort.direction === "asc" ? asc : desc;
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(tenants)
      .orderBy(order(sortColumns[query.sort.field]), order(tenants.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    db.select({ value: count() }).from(tenants),
  ]);
  return paged(rows.map(tenantRecord), total?.value ?? 0, query);
}

export async function updateTenant(
  db: Database,
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
