import { z } from "@hono/zod-openapi";
import { pageQuery } from "../http/pagination";
import { invitationStatuses } from "../identity/invitation-schemas";
import { Password, PersonName, Role } from "../identity/person-fields";
import { Session } from "../identity/session-record";

export const ListInvitationsQuery = pageQuery.extend({
  status: z
    .enum(invitationStatuses, { error: `must be one of ${invitationStatuses.join(", ")}` })
    .optional()
    .openapi({ param: { name: "status", in: "query" } }),
});
export type ListInvitationsQuery = z.infer<typeof ListInvitationsQuery>;

const Token = z
  .string()
  .trim()
  .min(1, "is required")
  .max(200, "must be at most 200 characters")
  .openapi({ description: "The token from the link in the invitation mail." });

const ActsFor = z
  .uuid()
  .nullable()
  .openapi({ description: "The merchant the person acts for in the tenant (null: the whole tenant)." });

export const InspectInvitationBody = z.strictObject({ token: Token }).openapi("InspectInvitationRequest");

export const InvitationPreview = z
  .object({
    email: z.string(),
    tenantName: z.string(),
    role: Role,
    merchantId: ActsFor,
    expiresAt: z.string().openapi({ format: "date-time" }),
    accountExists: z.boolean().openapi({
      description:
        "Whether this email already has an account: then the person signs in and accepts with `{token}` only.",
    }),
  })
  .openapi("InvitationPreview");

export const AcceptInvitationBody = z
  .strictObject({
    token: Token,
    password: Password.optional().openapi({
      description: "Required for a new account; refused for an existing one.",
    }),
    name: PersonName.optional().openapi({
      description: "Required for a new account; refused for an existing one.",
    }),
  })
  .openapi("AcceptInvitationRequest");
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBody>;

export const JoinedTenant = z
  .object({ tenantId: z.uuid(), role: Role, merchantId: ActsFor })
  .openapi("JoinedTenant");

export const AcceptedInvitation = z.union([Session, JoinedTenant]).openapi("AcceptedInvitation", {
  description:
    "A new account is signed in (a Session, as login answers); an existing account gets the tenant it joined.",
});
