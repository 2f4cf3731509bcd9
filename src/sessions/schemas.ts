import { z } from "@hono/zod-openapi";
import { scopes } from "../auth/scopes";
import { Email } from "../identity/person-fields";
import { SessionUser } from "../identity/session-record";

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

export const LoggedOut = z.object({ revoked: z.boolean() }).openapi("LoggedOut");

export const Me = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("user"), user: SessionUser }),
    z.object({
      type: z.literal("api_key"),
      apiKey: z.object({
        id: z.uuid(),
        scopes: z.array(z.enum(scopes)),
        merchantId: z
          .uuid()
          .nullable()
          .openapi({ description: "The merchant the key acts for (null: the whole tenant)." }),
      }),
      tenant: z.object({ id: z.uuid(), name: z.string(), plan: z.string(), status: z.string() }),
    }),
  ])
  .openapi("Me");
