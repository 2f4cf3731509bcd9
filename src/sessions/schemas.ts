import { z } from "@hono/zod-openapi";
import { scopes } from "../auth/scopes";
import { Email, Role } from "../users/schemas";

export const LoginBody = z
  .strictObject({
    email: Email,
    // Not the 8..256 rule of new passwords: a wrong password of any length is a 401, not a 400.
    password: z.string().min(1, "Password is required").max(256, "must be at most 256 characters"),
  })
  .openapi("LoginRequest");

export const RefreshBody = z
  .strictObject({ refreshToken: z.string().min(1, "is required").max(200) })
  .openapi("RefreshRequest");

export const Membership = z
  .object({ tenantId: z.uuid(), tenantName: z.string(), role: Role })
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

export const LoggedOut = z.object({ revoked: z.boolean() }).openapi("LoggedOut");

export const Me = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("user"), user: SessionUser }),
    z.object({
      type: z.literal("api_key"),
      apiKey: z.object({ id: z.uuid(), scopes: z.array(z.enum(scopes)) }),
      tenant: z.object({ id: z.uuid(), name: z.string(), plan: z.string(), status: z.string() }),
    }),
  ])
  .openapi("Me");
