import { signedInUserId } from "../auth/authenticate";
import { platformDb } from "../db/client";
import { envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { Invitation } from "../identity/invitation-schemas";
import { rememberClientAfterResponse } from "../identity/known-clients";
import { deliverSession, SESSION_COOKIE_TEXT } from "../identity/session-cookie";
import { auditActor } from "../pipeline/audit-actor";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { throttleTokenUse } from "../rate-limit/login-throttle";
import { acceptInvitation } from "./accept-invitation";
import { inspectInvitation } from "./inspect-invitation";
import { listInvitations } from "./list-invitations";
import { revokeInvitation } from "./revoke-invitation";
import {
  AcceptedInvitation,
  AcceptInvitationBody,
  InspectInvitationBody,
  InvitationPreview,
  ListInvitationsQuery,
} from "./schemas";

const admin = { scope: "admin" } as const;
const unknownToken = errorResponse("The token is unknown, used, revoked or expired");
const tooManyUnknownTokens = errorResponse(
  "Too many unknown tokens or failed logins from this client IP (100 in 15 minutes); see Retry-After",
);

const listInvitationsRoute = defineRoute(admin, {
  method: "get",
  path: "/users/invitations",
  operationId: "listInvitations",
  tags: ["Users"],
  summary: "List the tenant's invitations, newest first",
  request: { query: ListInvitationsQuery },
  responses: { 200: { description: "A page of invitations", ...json(envelopeOf(pagedOf(Invitation))) } },
});

const revokeInvitationRoute = defineRoute(admin, {
  method: "delete",
  path: "/users/invitations/{id}",
  operationId: "revokeInvitation",
  tags: ["Users"],
  summary: "Revoke an invitation: its link stops working",
  description: "Revoking a revoked or expired invitation returns it unchanged (revoked).",
  request: { params: IdParam },
  responses: {
    200: { description: "The revoked invitation", ...json(envelopeOf(Invitation)) },
    404: errorResponse("Unknown invitation"),
    409: errorResponse("The invitation was already accepted"),
  },
});

const inspectInvitationRoute = defineRoute("public", {
  method: "post",
  path: "/auth/invitations/inspect",
  operationId: "inspectInvitation",
  tags: ["Auth"],
  summary: "What an invitation offers, for the page that accepts it",
  description:
    "Only the holder of the mailed token can ask. The token stays valid. An unknown token counts as a failed " +
    "attempt of the client, with its failed logins (100 in 15 minutes, then 429 with Retry-After).",
  request: { body: { required: true, ...json(InspectInvitationBody) } },
  responses: {
    200: { description: "The invitation", ...json(envelopeOf(InvitationPreview)) },
    404: unknownToken,
    429: tooManyUnknownTokens,
  },
});

const acceptInvitationRoute = defineRoute("public", {
  method: "post",
  path: "/auth/invitations/accept",
  operationId: "acceptInvitation",
  tags: ["Auth"],
  summary: "Accept an invitation: a new account signs in, an existing one joins the tenant",
  description:
    "For an email without an account, send `{token, password, name}`: the account is created and signed in " +
    "(the data is a Session, as from login). For an email that has an account, sign in first and send " +
    "`Authorization: Bearer <access token>` of that account with `{token}` only: the data is the tenant joined. " +
    "The token works once. An unknown token counts as a failed attempt of the client, with its failed logins " +
    "(100 in 15 minutes, then 429 with Retry-After)." +
    SESSION_COOKIE_TEXT,
  // No credential for a new account; an existing account's access token otherwise.
  security: [{}, { BearerAuth: [] }],
  request: { body: { required: true, ...json(AcceptInvitationBody) } },
  responses: {
    200: { description: "Accepted", ...json(envelopeOf(AcceptedInvitation)) },
    401: errorResponse(
      "The email has an account: sign in and send its access token; or the token is invalid",
    ),
    403: errorResponse(
      "Signed in as another account than the invited email, or X-Session-Cookie from another origin",
    ),
    404: unknownToken,
    409: errorResponse("Already a member, or the account was created meanwhile"),
    429: tooManyUnknownTokens,
  },
});

/**
 * Invitation management (admin) and the public accept pair. Mounted before `/users/{id}`, whose id
 * pattern would otherwise claim `/users/invitations`.
 */
export const invitationRoutes = createRouter()
  .openapi(listInvitationsRoute, async (c) =>
    ok(c, await listInvitations(c.var.platformScope, c.req.valid("query"))),
  )
  .openapi(revokeInvitationRoute, async (c) =>
    ok(c, await revokeInvitation(c.var.platformScope, c.req.valid("param").id, auditActor(c))),
  )
  .openapi(inspectInvitationRoute, async (c) => {
    const db = platformDb(c.env, c.var.d1Stats);
    return ok(c, await throttleTokenUse(c, () => inspectInvitation(db, c.req.valid("json").token)));
  })
  .openapi(acceptInvitationRoute, async (c) => {
    const input = { ...c.req.valid("json"), signedInUserId: await signedInUserId(c) };
    const db = platformDb(c.env, c.var.d1Stats);
    const accepted = await throttleTokenUse(c, () =>
      acceptInvitation(db, c.env.JWT_SECRET, input, auditActor(c)),
    );
    if ("user" in accepted) rememberClientAfterResponse(c, accepted.user.id);
    return ok(c, "refreshToken" in accepted ? deliverSession(c, accepted) : accepted);
  });
