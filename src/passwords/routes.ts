import { platformDb } from "../db/client";
import { accepted, envelopeOf, ok } from "../http/envelope";
import { AppError } from "../http/errors";
import { createRouter } from "../http/router";
import { rememberClientAfterResponse } from "../identity/known-clients";
import { appLink } from "../mail/links";
import { mailSender, sendAfterResponse } from "../mail/send";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { mayMailReset, throttlePasswordCheck, throttleTokenUse } from "../rate-limit/login-throttle";
import { changePassword } from "./change";
import { resetMail } from "./mail";
import { confirmPasswordReset, issueResetToken } from "./reset";
import {
  ChangePasswordBody,
  ConfirmPasswordResetBody,
  PasswordChanged,
  PasswordReset,
  PasswordResetBody,
  PasswordResetRequested,
} from "./schemas";

const tags = ["Auth"];

const changePasswordRoute = defineRoute("credential", {
  method: "post",
  path: "/auth/password",
  operationId: "changePassword",
  tags,
  summary: "Change your password (with the current one); your other logins are signed out",
  description:
    "Needs a user's access token (an API key has no password: 403). Every other login of the user (its refresh " +
    "tokens) is revoked, and unused reset links stop working; this login stays signed in. A wrong current password " +
    "is a 400 and counts as a failed attempt (at most 10 in 15 minutes, then 429).",
  request: { body: { required: true, ...json(ChangePasswordBody) } },
  responses: {
    200: { description: "Changed", ...json(envelopeOf(PasswordChanged)) },
    403: errorResponse("Called with an API key"),
  },
});

const requestPasswordResetRoute = defineRoute("public", {
  method: "post",
  path: "/auth/password-reset",
  operationId: "requestPasswordReset",
  tags,
  summary: "Mail a password-reset link to an account's email",
  description:
    "Always 202, whether or not the email has an account. If it has one, a one-time link " +
    "(`<origin>/app/reset-password?token=...`, valid 1 hour) is mailed to it; at most 5 mails per email and 30 " +
    "per client IP in an hour are sent (further requests are answered the same and send nothing).",
  request: { body: { required: true, ...json(PasswordResetBody) } },
  responses: { 202: { description: "Accepted", ...json(envelopeOf(PasswordResetRequested)) } },
});

const confirmPasswordResetRoute = defineRoute("public", {
  method: "post",
  path: "/auth/password-reset/confirm",
  operationId: "confirmPasswordReset",
  tags,
  summary: "Set a new password with the token from a reset mail",
  description:
    "The token works once. Every login of the account is signed out and its other reset links stop working; " +
    "sign in with the new password. An unknown token counts as a failed attempt of the client, with its failed " +
    "logins (100 in 15 minutes, then 429 with Retry-After).",
  request: { body: { required: true, ...json(ConfirmPasswordResetBody) } },
  responses: {
    200: { description: "The password is set", ...json(envelopeOf(PasswordReset)) },
    404: errorResponse("The token is unknown, used or expired"),
    429: errorResponse(
      "Too many unknown tokens or failed logins from this client IP (100 in 15 minutes); see Retry-After",
    ),
  },
});

export const passwordRoutes = createRouter()
  .openapi(changePasswordRoute, async (c) => {
    const { principal } = c.var;
    if (principal.type !== "user") {
      throw new AppError("FORBIDDEN", "An API key has no password: sign in as a user to change yours");
    }
    const db = platformDb(c.env, c.var.d1Stats);
    const user = { id: principal.id, sessionId: principal.sessionId };
    return ok(
      c,
      await throttlePasswordCheck(c, user.id, () => changePassword(db, user, c.req.valid("json"))),
    );
  })
  .openapi(requestPasswordResetRoute, async (c) => {
    const { email } = c.req.valid("json");
    const sender = mailSender(c);
    // Everything but validation happens after the response: the answer and its timing say nothing.
    sendAfterResponse(c, sender, async () => {
      if (!(await mayMailReset(c, email))) return undefined;
      const issued = await issueResetToken(platformDb(c.env), email);
      return issued && resetMail(issued.email, appLink(c, "reset-password", issued.token));
    });
    return accepted(c, { email });
  })
  .openapi(confirmPasswordResetRoute, async (c) => {
    const db = platformDb(c.env, c.var.d1Stats);
    const reset = await throttleTokenUse(c, () => confirmPasswordReset(db, c.req.valid("json")));
    // The mailbox's holder proved themselves from this client: it is now a usual one (a way back in for
    // someone locked out of a new network by an attacker filling their email's ceiling).
    rememberClientAfterResponse(c, reset.userId);
    return ok(c, { email: reset.email });
  });
