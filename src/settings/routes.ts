import { z } from "@hono/zod-openapi";
import { envelopeOf, ok } from "../http/envelope";
import { createRouter } from "../http/router";
import { urlGuardOptions } from "../outbound/dns";
import { assertDeliverableUrl } from "../outbound/url-guard";
import { auditActor } from "../pipeline/audit-actor";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { deleteCarrier } from "./carriers/delete-carrier";
import { listCarriers } from "./carriers/list-carriers";
import { putCarrier } from "./carriers/put-carrier";
import { carrierRecord, getCarrier } from "./carriers/records";
import { CarrierCodeParam, CarrierRecord, PutCarrierBody } from "./carriers/schemas";
import { readSettings } from "./read-settings";
import { TenantSettingsRecord, UpdateSettingsBody } from "./schemas";
import { updateSettings } from "./update-settings";

const tags = ["Settings"];
const admin = { scope: "admin" } as const;
const settings = (description: string) => ({ description, ...json(envelopeOf(TenantSettingsRecord)) });
const carrier = (description: string) => ({ description, ...json(envelopeOf(CarrierRecord)) });
const unknownCarrier = { 404: errorResponse("No carrier with this code is configured") };

const getSettingsRoute = defineRoute("tenant", {
  method: "get",
  path: "/settings",
  operationId: "getSettings",
  tags,
  summary: "The tenant's settings (GS1 company prefix, currency)",
  responses: { 200: settings("The settings") },
});
const updateSettingsRoute = defineRoute(admin, {
  method: "patch",
  path: "/settings",
  operationId: "updateSettings",
  tags,
  summary: "Change the tenant's settings (omitted fields stay as they are)",
  request: { body: { required: true, ...json(UpdateSettingsBody) } },
  responses: { 200: settings("The settings after the change") },
});

const listCarriersRoute = defineRoute(admin, {
  method: "get",
  path: "/settings/carriers",
  operationId: "listCarriers",
  tags,
  summary: "The tenant's carrier label services, by code (secrets are never shown)",
  responses: {
    200: { description: "Every configured carrier", ...json(envelopeOf(z.array(CarrierRecord))) },
  },
});
const getCarrierRoute = defineRoute(admin, {
  method: "get",
  path: "/settings/carriers/{code}",
  operationId: "getCarrier",
  tags,
  summary: "A carrier's label service (the secret is never shown)",
  request: { params: CarrierCodeParam },
  responses: { 200: carrier("The carrier"), ...unknownCarrier },
});
const putCarrierRoute = defineRoute(admin, {
  method: "put",
  path: "/settings/carriers/{code}",
  operationId: "putCarrier",
  tags,
  summary: "Configure (or replace) the label service of a carrier code",
  description:
    "A shipment whose `carrier` is this code is labelled by this service: `POST /shipments/{id}/label` sends it a Standard Webhooks-signed request (signed with `secret`) and stores the tracking numbers and labels it answers. The URL passes the same guard as webhook URLs. The secret is stored encrypted and never shown again.",
  request: { params: CarrierCodeParam, body: { required: true, ...json(PutCarrierBody) } },
  responses: { 200: carrier("The carrier as configured") },
});
const deleteCarrierRoute = defineRoute(admin, {
  method: "delete",
  path: "/settings/carriers/{code}",
  operationId: "deleteCarrier",
  tags,
  summary: "Remove a carrier's label service: its shipments are labelled by the manual carrier again",
  request: { params: CarrierCodeParam },
  responses: { 200: carrier("The removed carrier"), ...unknownCarrier },
});

export const settingsRoutes = createRouter()
  .openapi(getSettingsRoute, async (c) => ok(c, await readSettings(c.var.tenantDb)))
  .openapi(updateSettingsRoute, async (c) =>
    ok(c, await updateSettings(c.var.tenantDb, c.req.valid("json"), auditActor(c))),
  )
  .openapi(listCarriersRoute, async (c) => ok(c, await listCarriers(c.var.tenantDb)))
  .openapi(getCarrierRoute, async (c) =>
    ok(c, carrierRecord(await getCarrier(c.var.tenantDb, c.req.valid("param").code))),
  )
  .openapi(putCarrierRoute, async (c) => {
    const body = c.req.valid("json");
    await assertDeliverableUrl(body.url, urlGuardOptions(c.env));
    const { code } = c.req.valid("param");
    return ok(c, await putCarrier(c.var.tenantDb, c.env.WEBHOOK_SECRET_KEY, code, body, auditActor(c)));
  })
  .openapi(deleteCarrierRoute, async (c) =>
    ok(c, await deleteCarrier(c.var.tenantDb, c.req.valid("param").code, auditActor(c))),
  );
