import { z } from "@hono/zod-openapi";
import { platformDb } from "../db/client";
import { chooseShard, describeShards } from "../db/placement";
import { moveFaultOf } from "../dev/fault-injection";
import { accepted, created, envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { invitationMail } from "../identity/invitation-mail";
import { appLink } from "../mail/links";
import { mailSender, sendAfterResponse } from "../mail/send";
import { auditActor } from "../pipeline/audit-actor";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { createTenant } from "./create-tenant";
import { listTenants } from "./list-tenants";
import { findMove } from "./moves/read-move";
import { startMove } from "./moves/start-move";
import {
  CreatedTenant,
  CreateTenantBody,
  ListTenantsQuery,
  MoveRecord,
  MoveTenantBody,
  ShardRecord,
  TenantRecord,
  UpdateTenantBody,
} from "./schemas";
import { updateTenant } from "./update-tenant";

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
  description:
    "Every tenant with its plan, status, shard and owner, newest first unless `sort` says otherwise.",
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

const listShardsRoute = defineRoute("platform", {
  method: "get",
  path: "/platform/shards",
  operationId: "listShards",
  tags: ["Platform"],
  summary: "List the shards with their tenants, size and big tables' row counts",
  description:
    "A new tenant goes to the shard holding the least data unless `POST /platform/tenants` names one. " +
    "Counting rows reads whole tables: an operator's call, not a monitoring probe.",
  responses: { 200: { description: "Every shard", ...json(envelopeOf(z.array(ShardRecord))) } },
});

const moveTenantRoute = defineRoute("platform", {
  method: "post",
  path: "/platform/tenants/{id}/move",
  operationId: "moveTenant",
  tags: ["Platform"],
  summary: "Move a tenant to another shard, online",
  description:
    "Starts the move and answers at once; `GET /platform/moves/{id}` shows its progress. Reads keep working " +
    "throughout; writes keep working while rows are copied, and are answered 503 with `Retry-After` only " +
    "while the last changes are copied and verified (nothing is lost: a refused write changed nothing). A " +
    "failed move leaves the tenant where it was, intact.",
  request: { params: IdParam, body: { required: true, ...json(MoveTenantBody) } },
  responses: {
    202: { description: "The move, started", ...json(envelopeOf(MoveRecord)) },
    404: errorResponse("Unknown tenant"),
    409: errorResponse("The tenant is already on that shard, or already moving"),
  },
});

const getMoveRoute = defineRoute("platform", {
  method: "get",
  path: "/platform/moves/{id}",
  operationId: "getMove",
  tags: ["Platform"],
  summary: "Show a tenant move's progress",
  description:
    "Poll it after starting a move: the status goes copying, verifying, switching, then done (or failed, with " +
    "the reason); the tenant is served throughout.",
  request: { params: IdParam },
  responses: {
    200: { description: "The move", ...json(envelopeOf(MoveRecord)) },
    404: errorResponse("Unknown move"),
  },
});

export const platformRoutes = createRouter()
  .openapi(createTenantRoute, async (c) => {
    const sender = mailSender(c);
    const body = c.req.valid("json");
    const { created: tenant, invitationToken } = await createTenant(
      platformDb(c.env, c.var.d1Stats),
      c.env.ENVIRONMENT,
      await chooseShard(c.env, body.shard),
      body,
      auditActor(c, "platform"),
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
  .openapi(listShardsRoute, async (c) => ok(c, await describeShards(c.env)))
  .openapi(moveTenantRoute, async (c) => {
    const move = await startMove(
      c.env,
      c.req.valid("param").id,
      c.req.valid("json").shard,
      auditActor(c, "platform"),
      moveFaultOf(c),
    );
    c.header("Location", `/api/v1/platform/moves/${move.id}`);
    return accepted(c, move);
  })
  .openapi(getMoveRoute, async (c) => ok(c, await findMove(c.env, c.req.valid("param").id)))
  .openapi(updateTenantRoute, async (c) =>
    ok(
      c,
      await updateTenant(
        platformDb(c.env, c.var.d1Stats),
        c.req.valid("param").id,
        c.req.valid("json"),
        auditActor(c, "platform"),
      ),
    ),
  );
