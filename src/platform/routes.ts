import { platformDb } from "../db/client";
import { created, envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { defineRoute, errorResponse, jsonContent as json } from "../http/route";
import { createRouter } from "../http/router";
import { invitationMail } from "../invitations/mail";
import { appLink } from "../mail/links";
import { mailSender, sendAfterResponse } from "../mail/send";
import { CreatedTenant, CreateTenantBody, ListTenantsQuery, TenantRecord, UpdateTenantBody } from "./schemas";
import { createTenant, listTenants, updateTenant } from "./service";

const createTenantRoute = defineRoute("platform", {
  method: "post",
  path: "/platform/tenants",
  operationId: "createTenant",
  tags: ["Platform"],
  summary: "Create a tenant with its owner and a first admin API key",
  description:
    "For an email without an account, the owner's account is created with the given password and name, " +
    "and a first admin key is returned (shown only here). For an email that already has an account, the " +
    "password and name are ignored: that person is invited as owner (`ownerInvitation`, mailed to them) and " +
    "becomes owner only by accepting; `owner` and `apiKey` are then null.",
  request: { body: { required: true, ...json(CreateTenantBody) } },
  responses: {
    201: { description: "Created; the API key is shown only here", ...json(envelopeOf(CreatedTenant)) },
    409: errorResponse("An account for the owner's email was created at the same moment; retry"),
  },
});

const listTenantsRoute = defineRoute("platform", {
  method: "get",
  path: "/platform/tenants",
  operationId: "listTenants",
  tags: ["Platform"],
  summary: "List tenants",
  request: { query: ListTenantsQuery },
  responses: { 200: { description: "A page of tenants", ...json(envelopeOf(pagedOf(TenantRecord))) } },
});

const updateTenantRoute = defineRoute("platform", {
  method: "patch",
  path: "/platform/tenants/{id}",
  operationId: "updateTenant",
  tags: ["Platform"],
  summary: "Change a tenant's name, plan or status",
  description: "A plan change or suspension takes effect on the tenant's next request.",
  request: { params: IdParam, body: { required: true, ...json(UpdateTenantBody) } },
  responses: {
    200: { description: "The updated tenant", ...json(envelopeOf(TenantRecord)) },
    404: errorResponse("Unknown tenant"),
  },
});

export const platformRoutes = createRouter()
  .openapi(createTenantRoute, async (c) => {
    const sender = mailSender(c);
    const { created: tenant, invitationToken } = await createTenant(
      platformDb(c.env, c.var.d1Stats),
      c.env.ENVIRONMENT,
      c.req.valid("json"),
    );
    if (tenant.ownerInvitation && invitationToken) {
      sendAfterResponse(
        c,
        sender,
        invitationMail({
          to: tenant.ownerInvitation.email,
          tenantName: tenant.tenant.name,
          role: "owner",
          expiresAt: tenant.ownerInvitation.expiresAt,
          accountExists: true,
          link: appLink(c, "accept-invitation", invitationToken),
        }),
      );
    }
    return created(c, tenant, `/api/v1/platform/tenants/${tenant.tenant.id}`);
  })
  .openapi(listTenantsRoute, async (c) =>
    ok(c, await listTenants(platformDb(c.env, c.var.d1Stats), c.req.valid("query"))),
  )
  .openapi(updateTenantRoute, async (c) =>
    ok(c, await updateTenant(platformDb(c.env, c.var.d1Stats), c.req.valid("param").id, c.req.valid("json"))),
  );
