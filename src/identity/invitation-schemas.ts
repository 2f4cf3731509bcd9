import { z } from "@hono/zod-openapi";
import { type FieldRule, withRules } from "../http/field-rules";
import { Email, Role } from "./person-fields";

export const invitationStatuses = ["pending", "accepted", "revoked", "expired"] as const;

export type InvitationStatus = (typeof invitationStatuses)[number];

export const Invitation = z
  .object({
    id: z.uuid(),
    email: z.string(),
    role: Role,
    status: z.enum(invitationStatuses),
    expiresAt: z.string().openapi({ format: "date-time" }),
    createdAt: z.string().openapi({ format: "date-time" }),
    acceptedAt: z.string().nullable().openapi({ format: "date-time" }),
    revokedAt: z.string().nullable().openapi({
      format: "date-time",
      description: "When it was revoked, or replaced by a newer invitation of the same email.",
    }),
    merchantId: z
      .uuid()
      .nullable()
      .openapi({ description: "The merchant the person will act for (null: the whole tenant)." }),
    invitedBy: z.object({
      type: z.enum(["user", "api_key", "platform"]),
      id: z
        .string()
        .nullable()
        .openapi({ description: "The user or API key; null for the platform operator." }),
    }),
  })
  .openapi("Invitation", {
    description:
      "An invitation to join a tenant. Its one-time token went only to `email` and is in no API response.",
  });

/** The merchant a person acts for, as `POST /users` and `PUT /users/{id}` take it. */
export const MemberMerchant = z
  .uuid("must be a merchant's id")
  .nullable()
  .optional()
  .openapi({
    description:
      "The member acts for this merchant only (its products, stock, orders, shipments, events and reports; " +
      "every other id is a 404; never people, keys, merchants or settings); omitted or null: the whole tenant. " +
      "Not with the owner role.",
  });

/** An owner answers for the whole tenant: a role and merchant pair (`POST /users`, `PUT /users/{id}`) checks it. */
/** An owner acts for the whole tenant: `role: owner` with a merchant is a 400. */
export const ownerForWholeTenant: FieldRule<{ role: string; merchantId?: string | null }> = {
  check: (body, ctx) => {
    if (body.role === "owner" && body.merchantId) {
      ctx.addIssue({
        code: "custom",
        path: ["merchantId"],
        message: "an owner acts for the whole tenant, not one merchant",
      });
    }
  },
  states: {
    not: {
      required: ["role", "merchantId"],
      properties: { role: { const: "owner" }, merchantId: { not: { type: "null" } } },
    },
  },
};

export const InviteUserBody = withRules(
  z.strictObject({ email: Email, role: Role, merchantId: MemberMerchant }),
  ownerForWholeTenant,
).openapi("InviteUserRequest");

export type InviteUserBody = z.infer<typeof InviteUserBody>;
