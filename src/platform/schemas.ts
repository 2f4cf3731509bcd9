import { z } from "@hono/zod-openapi";
import { scopes } from "../auth/scopes";
import { pageQuery, sortQuery } from "../http/pagination";
import { NewUser, Role } from "../users/schemas";

export const Plan = z.enum(["starter", "business", "enterprise"]).openapi({ example: "business" });
export const TenantStatus = z.enum(["active", "suspended"]);

export const TenantRecord = z
  .object({
    id: z.uuid(),
    name: z.string(),
    plan: Plan,
    status: TenantStatus,
    createdAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Tenant");

export const CreateTenantBody = z
  .strictObject({
    name: z.string().trim().min(1, "Name is required").max(200),
    plan: Plan,
    owner: NewUser,
  })
  .openapi("CreateTenantRequest");

export const UpdateTenantBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    plan: Plan.optional(),
    status: TenantStatus.optional(),
  })
  .openapi("UpdateTenantRequest");

export const CreatedTenant = z
  .object({
    tenant: TenantRecord,
    owner: z.object({ id: z.uuid(), email: z.string(), name: z.string(), role: Role }),
    apiKey: z.object({
      id: z.uuid(),
      key: z.string().openapi({ description: "The plain key: shown in this response only." }),
      prefix: z.string(),
      scopes: z.array(z.enum(scopes)),
    }),
  })
  .openapi("CreatedTenant");

export const ListTenantsQuery = pageQuery.extend({
  sort: sortQuery(["createdAt", "name"], { field: "createdAt", direction: "desc" }),
});
export type ListTenantsQuery = z.infer<typeof ListTenantsQuery>;
