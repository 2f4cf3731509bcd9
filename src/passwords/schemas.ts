import { z } from "@hono/zod-openapi";
import { Email, Password } from "../identity/person-fields";

export const ChangePasswordBody = z
  .strictObject({
    // Not the 8..256 rule of new passwords: a wrong current password of any length is simply wrong.
    currentPassword: z.string().min(1, "is required").max(256, "must be at most 256 characters"),
    newPassword: Password,
  })
  .openapi("ChangePasswordRequest");

export const PasswordChanged = z
  .object({
    changedAt: z.string().openapi({ format: "date-time" }),
    otherSessionsRevoked: z.number().int().openapi({
      description: "How many other logins (refresh-token families) were ended; this one stays signed in.",
    }),
  })
  .openapi("PasswordChanged");

export const PasswordResetBody = z.strictObject({ email: Email }).openapi("PasswordResetRequest");

export const PasswordResetRequested = z.object({ email: z.string() }).openapi("PasswordResetRequested", {
  description:
    "The same answer whether or not the email has an account: if it has one, a link is on its way.",
});

export const ConfirmPasswordResetBody = z
  .strictObject({
    token: z
      .string()
      .trim()
      .min(1, "is required")
      .max(200, "must be at most 200 characters")
      .openapi({ description: "The token from the link in the reset mail." }),
    password: Password,
  })
  .openapi("ConfirmPasswordResetRequest");

export const PasswordReset = z
  .object({
    email: z.string().openapi({ description: "The account whose password was set; sign in with it." }),
  })
  .openapi("PasswordReset");
