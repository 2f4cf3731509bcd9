import { accountableUser } from "../auth/principal";
import { assertRequestMerchant } from "../db/merchant-named";
import { accepted, envelopeOf, ok } from "../http/envelope";
import { pagedOf, pageQuery, sortQuery } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { invitationMail } from "../identity/invitation-mail";
import { Invitation, InviteUserBody } from "../identity/invitation-schemas";
import { inviteMember } from "../identity/invite-member";
import { appLink } from "../mail/links";
import { mailSender, sendAfterResponse } from "../mail/send";
import { auditActor } from "../pipeline/audit-actor";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { changeRole } from "./change-role";
import { listMembers } from "./list-users";
import { getMember } from "./read-user";
import { removeMember } from "./remove-user";
import { MemberRecord, UpdateUserBody } from "./schemas";

const admin = { scope: "admin" } as const;
const tags = ["Users"];
const ListUsersQuery = pageQuery.extend({
  sort: sortQuery(["joinedAt"], { field: "joinedAt", direction: "desc" }),
});

const listUsersRoute = defineRoute(admin, {
  method: "get",
  path: "/users",
  operationId: "listUsers",
  tags,
  summary: "List the tenant's users and their roles",
  request: { query: ListUsersQuery },
  responses: { 200: { description: "A page of users", ...json(envelopeOf(pagedOf(MemberRecord))) } },
});

const addUserRoute = defineRoute(admin, {
  method: "post",
  path: "/users",
  operationId: "addUser",
  tags,
  summary: "Invite an email into the tenant with a role",
  description:
    "Mails a one-time link (valid 7 days) to the email; the person joins by accepting it " +
    "(`POST /auth/invitations/accept`), acting for `merchantId` only when one is given. The answer is the same " +
    "whether or not the email has an account. " +
    "Inviting an email again replaces its pending invitation. Only an owner (or a key an owner made) invites an " +
    "owner (403). The invitation lives only while its sender may grant its role: removing or demoting the sender, " +
    "or revoking the key that sent it, or restricting the sender to one merchant, revokes it, and accepting " +
    "re-checks it.",
  request: { body: { required: true, ...json(InviteUserBody) } },
  responses: {
    202: { description: "Invited: the mail is on its way", ...json(envelopeOf(Invitation)) },
    404: errorResponse("Unknown merchant"),
    409: errorResponse("Already a member of this tenant"),
  },
});

const getUserRoute = defineRoute(admin, {
  method: "get",
  path: "/users/{id}",
  operationId: "getUser",
  tags,
  summary: "Get a member of the tenant",
  request: { params: IdParam },
  responses: {
    200: { description: "The member", ...json(envelopeOf(MemberRecord)) },
    404: errorResponse("Not a member of this tenant"),
  },
});

const updateUserRoute = defineRoute(admin, {
  method: "put",
  path: "/users/{id}",
  operationId: "updateUser",
  tags,
  summary: "Change a member's role, and the merchant they act for",
  description:
    "Only an owner grants or takes away the owner role (403). The last owner cannot be demoted (409). The " +
    "invitations the member sent that the new role cannot grant are revoked with the change.",
  request: { params: IdParam, body: { required: true, ...json(UpdateUserBody) } },
  responses: {
    200: { description: "The member", ...json(envelopeOf(MemberRecord)) },
    404: errorResponse("Not a member of this tenant, or an unknown merchant"),
    409: errorResponse("The last owner cannot be demoted"),
  },
});

const removeUserRoute = defineRoute(admin, {
  method: "delete",
  path: "/users/{id}",
  operationId: "removeUser",
  tags,
  summary: "Remove a member from the tenant (effective on their next request)",
  description:
    "The account itself remains (it may belong to other tenants). Only an owner removes an owner (403); the last " +
    "owner cannot be removed (409). The member's pending invitations, and those of their keys, are revoked with it.",
  request: { params: IdParam },
  responses: {
    200: { description: "The removed member", ...json(envelopeOf(MemberRecord)) },
    404: errorResponse("Not a member of this tenant"),
    409: errorResponse("The last owner cannot be removed"),
  },
});

export const userRoutes = createRouter()
  .openapi(listUsersRoute, async (c) => ok(c, await listMembers(c.var.platformScope, c.req.valid("query"))))
  .openapi(addUserRoute, async (c) => {
    const sender = mailSender(c);
    const { principal, tenant } = c.var;
    const invitedBy = { invitedByType: principal.type, invitedById: principal.id };
    const input = c.req.valid("json");
    if (input.merchantId) await assertRequestMerchant(c, input.merchantId);
    const { invitation, token, accountExists } = await inviteMember(
      c.var.platformScope,
      input,
      invitedBy,
      auditActor(c),
    );
    sendAfterResponse(
      c,
      sender,
      invitationMail({
        to: invitation.email,
        tenantName: tenant.name,
        role: invitation.role,
        expiresAt: invitation.expiresAt,
        accountExists,
        link: appLink(c, "accept-invitation", token),
      }),
    );
    return accepted(c, invitation);
  })
  .openapi(getUserRoute, async (c) => ok(c, await getMember(c.var.platformScope, c.req.valid("param").id)))
  .openapi(updateUserRoute, async (c) => {
    const { role, merchantId = null } = c.req.valid("json");
    if (merchantId) await assertRequestMerchant(c, merchantId);
    const { id } = c.req.valid("param");
    return ok(
      c,
      await changeRole(
        c.var.platformScope,
        accountableUser(c.var.principal),
        id,
        role,
        merchantId,
        auditActor(c),
      ),
    );
  })
  .openapi(removeUserRoute, async (c) =>
    ok(
      c,
      await removeMember(
        c.var.platformScope,
        accountableUser(c.var.principal),
        c.req.valid("param").id,
        auditActor(c),
      ),
    ),
  );
