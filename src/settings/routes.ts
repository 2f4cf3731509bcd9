import { envelopeOf, ok } from "../http/envelope";
import { createRouter } from "../http/router";
import { defineRoute, jsonContent as json } from "../pipeline/route";
import { readSettings } from "./read-settings";
import { TenantSettingsRecord, UpdateSettingsBody } from "./schemas";
import { updateSettings } from "./update-settings";

const tags = ["Settings"];
const settings = (description: string) => ({ description, ...json(envelopeOf(TenantSettingsRecord)) });

const getSettingsRoute = defineRoute("tenant", {
  method: "get",
  path: "/settings",
  operationId: "getSettings",
  tags,
  summary: "The tenant's settings (GS1 company prefix)",
  responses: { 200: settings("The settings") },
});
const updateSettingsRoute = defineRoute(
  { scope: "admin" },
  {
    method: "patch",
    path: "/settings",
    operationId: "updateSettings",
    tags,
    summary: "Change the tenant's settings (omitted fields stay as they are)",
    request: { body: { required: true, ...json(UpdateSettingsBody) } },
    responses: { 200: settings("The settings after the change") },
  },
);

export const settingsRoutes = createRouter()
  .openapi(getSettingsRoute, async (c) => ok(c, await readSettings(c.var.tenantDb)))
  .openapi(updateSettingsRoute, async (c) =>
    ok(c, await updateSettings(c.var.tenantDb, c.req.valid("json"))),
  );
