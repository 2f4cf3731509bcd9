import { z } from "@hono/zod-openapi";
import { scopes } from "../auth/scopes";
import { nullableRef } from "../http/nullable";
import { pageQuery, sortQuery } from "../http/pagination";
import { Invitation } from "../identity/invitation-schemas";
import { NewUser, Role } from "../identity/person-fields";

export const Plan = z.enum(["starter", "business", "enterprise"]).openapi({ example: "business" });
export const TenantStatus = z.enum(["active", "suspended"]);

export const TenantRecord = z
  .object({
    id: z.uuid(),
    name: z.string(),
    plan: Plan,
    status: TenantStatus,
    shard: z
      .string()
      .openapi({ description: "The database (shard) holding the tenant's data", example: "SHARD_0" }),
    createdAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Tenant");

export const CreateTenantBody = z
  .strictObject({
    name: z.string().trim().min(1, "Name is required").max(200),
    plan: Plan,
    owner: NewUser,
    shard: z.string().max(64).optional().openapi({
      description: "The shard to place the tenant on; by default the one holding the least data",
      example: "SHARD_1",
    }),
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
    owner: z.object({ id: z.uuid(), email: z.string(), name: z.string(), role: Role }).nullable().openapi({
      description: "The new owner account; null when the email already had an account (see ownerInvitation).",
    }),
    ownerInvitation: nullableRef(Invitation).openapi({
      description:
        "When the email already had an account: that person becomes owner only by accepting this invitation " +
        "(mailed to them); their password and name are left alone. Until then the tenant has no member and no key.",
    }),
    apiKey: z
      .object({
        id: z.uuid(),
        key: z.string().openapi({ description: "The plain key: shown in this response only." }),
        prefix: z.string(),
        scopes: z.array(z.enum(scopes)),
      })
      .nullable()
      .openapi({
        description:
          "A first admin key, created by the new owner; null when the owner is only invited (a key is worth " +
          "at most its creator's role: the owner creates keys after accepting).",
      }),
  })
  .openapi("CreatedTenant");

export const ListTenantsQuery = pageQuery.extend({
  sort: sortQuery(["createdAt", "name"], { field: "createdAt", direction: "desc" }),
});
export type ListTenantsQuery = z.infer<typeof ListTenantsQuery>;

export const ShardRecord = z
  .object({
    name: z.string().openapi({ example: "SHARD_0" }),
    tenants: z.number().int(),
    sizeBytes: z.number().int().openapi({ description: "The database's size as D1 reports it" }),
    rows: z.record(z.string(), z.number().int()).openapi({
      description: "Row counts of the tables that grow with activity",
      example: { products: 5000 },
    }),
  })
  .openapi("Shard");

export const MoveTenantBody = z
  .strictObject({
    shard: z.string().max(64).openapi({ description: "The shard to move the tenant to", example: "SHARD_1" }),
  })
  .openapi("MoveTenantRequest");

export const MoveRecord = z
  .object({
    id: z.uuid(),
    tenantId: z.uuid(),
    fromShard: z.string().openapi({ example: "SHARD_0" }),
    toShard: z.string().openapi({ example: "SHARD_1" }),
    status: z.enum(["copying", "verifying", "switching", "done", "failed"]).openapi({
      description:
        "`copying`: rows are copied while the tenant keeps working; `verifying`: writes are fenced (503 with " +
        "Retry-After) while the last changes are copied and every table's row count and every ledger sum are " +
        "compared; `switching`: the directory points to the new shard and the old copy is being deleted; " +
        "`done`; `failed` (see `reason`): the tenant stayed where it was, intact.",
    }),
    reason: z.string().nullable().openapi({ description: "Why the move failed; null otherwise" }),
    rowsCopied: z.number().int().openapi({ description: "Rows copied so far by the bulk copy" }),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
    finishedAt: z.string().nullable().openapi({ format: "date-time" }),
  })
  .openapi("TenantMove");
