import { z } from "@hono/zod-openapi";
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

export const InviteUserBody = z.strictObject({ email: Email, role: Role }).openapi("InviteUserRequest");

export type InviteUserBody = z.infer<typeof InviteUserBody>;
