import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { API_VERSION } from "../http/api-version";
import { DOCS_CSP, serveAsset } from "../http/static-assets";
import { addCodeSamples } from "./code-samples";
import { withUuidPatterns } from "./uuid-pattern";
import { registerWebhooks } from "./webhooks";

/**
 * Publishes GET /openapi.json (OpenAPI 3.1, from the routes' own zod schemas) and GET /docs, the reference page.
 * The page and its renderer's script are the Worker's own static assets (web/docs, built into web/dist/docs):
 * no CDN, so the page works offline and under a CSP that allows this origin only.
 */
const environmentName = (environment: string) =>
  environment === "development" ? "local development" : environment;

export function publishOpenApi(api: OpenAPIHono<AppEnv>) {
  addCodeSamples(api);
  const registry = api.openAPIRegistry;
  registerWebhooks(registry);
  registry.registerComponent("securitySchemes", "BearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT or API key",
    description: "A JWT from POST /auth/login, or an API key (wms_live_... / wms_test_...).",
  });
  registry.registerComponent("securitySchemes", "ApiKeyAuth", {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "An API key, shown once when it is created.",
  });
  registry.registerComponent("securitySchemes", "PlatformToken", {
    type: "http",
    scheme: "bearer",
    description: "The platform operator token (PLATFORM_ADMIN_TOKEN secret).",
  });

  // OpenAPI 3.1's SPDX `identifier`, which the generator's (3.0) license type does not list.
  const license = { name: "Proprietary", identifier: "LicenseRef-Proprietary" };
  const documentFor = (origin: string, environment: string) =>
    withUuidPatterns(
      api.getOpenAPI31Document({
        openapi: "3.1.0",
        info: {
          title: "Warehouse Management API",
          version: API_VERSION,
          description:
            "Products, stock, orders, locations and webhooks for integrators. Every response is the envelope " +
            "`{success, data, message, errors}`. Authenticate with a JWT (plus `X-Tenant-Id`) or an API key.",
          license,
          contact: { name: "Warehouse API team" },
        },
        // Paths already start with /api/v1, so the server is the origin alone.
        // `x-internal: false`: for integrators. The environment in words (OWASP's inventory rule reads them).
        servers: [
          { url: origin, description: `This server (${environmentName(environment)})`, "x-internal": false },
        ],
        tags: [
          { name: "Meta", description: "Health, OpenAPI document and docs" },
          { name: "Auth", description: "Login, refresh tokens and the current principal" },
          { name: "Platform", description: "Tenant administration by the platform operator" },
          { name: "Users", description: "Memberships of the current tenant" },
          { name: "API keys", description: "Server-to-server credentials" },
          {
            name: "Audit log",
            description:
              "Who did what, from where: every administrative and security-relevant action, hash-chained",
          },
          { name: "Products", description: "The product catalog" },
          { name: "Merchants", description: "The brands whose goods a third-party logistics tenant stores" },
          { name: "Warehouses", description: "Warehouses" },
          { name: "Locations", description: "Locations inside warehouses" },
          { name: "Inventory", description: "Stock levels, adjustments, transfers, holds and the ledger" },
          { name: "Cycle counts", description: "Counting stock and approving the differences" },
          { name: "Lots", description: "Lots and serial numbers, with their expiry and trace" },
          {
            name: "Jobs",
            description: "Uploads, and imports and exports run as durable jobs, with their result files",
          },
          { name: "Orders", description: "Sales and purchase orders" },
          {
            name: "Pick lists",
            description: "Picking confirmed sales orders, one order or a wave at a time",
          },
          { name: "Shipments", description: "Packages, labels and dispatch of shipped sales orders" },
          {
            name: "Returns",
            description: "Return authorizations (RMA) of shipped units, and their receipts",
          },
          {
            name: "Billing",
            description:
              "Rate cards, charges from what the warehouse did, and invoices per merchant and month",
          },
          { name: "Webhooks", description: "Event subscriptions and deliveries" },
          { name: "Events", description: "The feed of every change, the same events webhooks deliver" },
          { name: "Reports", description: "Reports as JSON or CSV" },
          { name: "Settings", description: "The tenant's settings, such as its GS1 company prefix" },
          {
            name: "Barcodes",
            description: "What a scanned code names: a product, location, lot, serial or package",
          },
        ],
      }),
    );
  api.get("/openapi.json", (c) => c.json(documentFor(new URL(c.req.url).origin, c.env.ENVIRONMENT)));

  api.get("/docs", (c) => serveAsset(c, "/docs/index.html", { csp: DOCS_CSP }));
  api.get("/docs/:file{[a-z-]+\\.js}", (c) =>
    serveAsset(c, `/docs/${c.req.param("file")}`, { csp: DOCS_CSP }),
  );
}
