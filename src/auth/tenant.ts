import { and, eq } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { dbFor, platformDb } from "../db/client";
import { openConsistencyToken, sealConsistencyToken } from "../db/consistency-token";
import { memberships, tenants } from "../db/schema/platform";
import type { AppEnv } from "../env";
import { AppError } from "../http/errors";
import { roleRights } from "./rights";
import type { Scope } from "./scopes";
import type { Tenant } from "./tenant-record";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const noAccess = () => new AppError("FORBIDDEN", "You do not have access to this tenant");

/**
 * Resolves the tenant a request acts on, and the scopes the caller holds there.
 * A key implies its tenant; a user names it in X-Tenant-Id and must be a member (checked on every
 * request, so removing a member or suspending a tenant takes effect at once).
 */
export const resolveTenant = createMiddleware<AppEnv>(async (c, next) => {
  const principal = c.var.principal;
  const header = c.req.header("x-tenant-id")?.trim();
  let tenant: Tenant;
  let scopes: readonly Scope[];
  let merchantId: string | null;
  if (principal.type === "api_key") {
    if (header && header.toLowerCase() !== principal.tenant.id) {
      throw new AppError("FORBIDDEN", "X-Tenant-Id does not match the API key's tenant");
    }
    tenant = principal.tenant;
    scopes = principal.scopes;
    merchantId = principal.merchantId;
  } else {
    if (!header)
      throw new AppError("BAD_REQUEST", "X-Tenant-Id header is required", {
        errors: ["X-Tenant-Id: is required"],
      });
    if (!UUID.test(header)) {
      throw new AppError("BAD_REQUEST", "X-Tenant-Id must be a UUID", {
        errors: ["X-Tenant-Id: must be a UUID"],
      });
    }
    const [row] = await platformDb(c.env, c.var.d1Stats)
      .select({
        id: tenants.id,
        name: tenants.name,
        plan: tenants.plan,
        status: tenants.status,
        shard: tenants.shard,
        role: memberships.role,
        merchantId: memberships.merchantId,
      })
      .from(memberships)
      .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
      .where(and(eq(memberships.tenantId, header.toLowerCase()), eq(memberships.userId, principal.id)))
      .limit(1);
    if (!row) throw noAccess();
    const { role, merchantId: memberMerchant, ...rest } = row;
    const rights = roleRights(role, memberMerchant);
    tenant = rest;
    scopes = rights.scopes;
    merchantId = rights.merchantId;
  }
  if (tenant.status !== "active") throw new AppError("FORBIDDEN", "This tenant is suspended");
  const tokenKey = c.env.WEBHOOK_SECRET_KEY;
  const after = await openConsistencyToken(tokenKey, tenant.id, c.req.header("consistency-token"));
  const tenantDb = await dbFor(c.env, tenant, c.var.d1Stats, after, merchantId ?? undefined);
  c.set("tenant", tenant);
  c.set("scopes", scopes);
  c.set("merchantId", merchantId ?? undefined);
  c.set("tenantDb", tenantDb);
  c.set("platformScope", { db: platformDb(c.env, c.var.d1Stats), tenantId: tenant.id });
  await next();
  // Set after the chain ran, so that error responses carry it too.
  const token = tenantDb.consistencyToken();
  if (token) c.header("Consistency-Token", await sealConsistencyToken(tokenKey, tenant.id, token));
});
