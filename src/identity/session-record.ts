import { z } from "@hono/zod-openapi";
import { Role } from "./person-fields";

// What signing in answers: login, refresh and accepting an invitation as a new account.
export const Membership = z
  .object({
    tenantId: z.uuid(),
    tenantName: z.string(),
    role: Role,
    merchantId: z
      .uuid()
      .nullable()
      .openapi({
        description:
          "The merchant this membership acts for: the member reads and writes that merchant's goods only " +
          "(null: the whole tenant).",
      }),
  })
  .openapi("Membership");

export const SessionUser = z
  .object({ id: z.uuid(), email: z.string(), name: z.string(), memberships: z.array(Membership) })
  .openapi("SessionUser");

export const Session = z
  .object({
    token: z.string().openapi({ description: "The access token (JWT, HS256), valid for 1 hour." }),
    refreshToken: z.string().openapi({
      description:
        "Opaque; single use: each refresh returns a new one. Valid for 30 days. Empty when the request sent " +
        "`X-Session-Cookie: 1`: the token is then in an HttpOnly cookie no script can read.",
    }),
    expiresAt: z.string().openapi({ format: "date-time", description: "When the access token expires." }),
    user: SessionUser,
  })
  .openapi("Session");
