import { OpenAPIHono } from "@hono/zod-openapi";
import { apiKeyRoutes } from "./api-keys/routes";
import { auditRoutes } from "./audit/routes";
import { barcodeRoutes } from "./barcodes/routes";
import { billingRoutes } from "./billing/routes";
import { refuseDevelopmentSecrets } from "./config/production-guard";
import { countRoutes } from "./counts/routes";
import { trackD1Stats } from "./db/d1-stats-header";
import { injectFaults } from "./dev/fault-injection";
import type { AppEnv } from "./env";
import { eventRoutes } from "./events/routes";
import { healthRoutes } from "./health/routes";
import { holdRoutes } from "./holds/routes";
import { checkBodiesExcept } from "./http/body-checks";
import { CachedRouter } from "./http/cached-router";
import { allowBrowserClients } from "./http/cors";
import { handleError } from "./http/error-handler";
import { notFoundOrMethodNotAllowed } from "./http/not-found";
import { requestId } from "./http/request-id";
import { securityHeaders } from "./http/security-headers";
import { validationHook } from "./http/validation";
import { inventoryRoutes } from "./inventory/routes";
import { invitationRoutes } from "./invitations/routes";
import { jobRoutes } from "./jobs/routes";
import { locationRoutes } from "./locations/routes";
import { lotRoutes } from "./lots/routes";
import { merchantRoutes } from "./merchants/routes";
import { logRequest } from "./observability/request-log";
import { publishOpenApi } from "./openapi/document";
import { orderRoutes } from "./orders/routes";
import { passwordRoutes } from "./passwords/routes";
import { pickListRoutes } from "./pick-lists/routes";
import { sealAuditChains } from "./pipeline/seal-audit-chain";
import { serveAgainOnChangedKeyView } from "./pipeline/serve-again";
import { platformRoutes } from "./platform/routes";
import { productRoutes } from "./products/routes";
import { reportRoutes } from "./reports/routes";
import { returnRoutes } from "./returns/routes";
import { sessionRoutes } from "./sessions/routes";
import { settingsRoutes } from "./settings/routes";
import { shipmentRoutes } from "./shipments/routes";
import { UPLOAD_PATH, uploadRoutes } from "./uploads/routes";
import { userRoutes } from "./users/routes";
import { warehouseRoutes } from "./warehouses/routes";
import { webAppRoutes } from "./web-app/routes";
import { webhookRoutes } from "./webhooks/routes";

/**
 * Builds the app: the pipeline's order and the route mounting, nothing else.
 * security headers -> (a read on a changed API-key view: served again) -> request id -> request log -> CORS -> D1 stats ->
 * production guard -> (soak only: fault injection) -> body limit -> control characters -> (per route,
 * src/pipeline/route.ts: authenticate -> tenant -> rate limit -> scope -> validation) -> handler; errors become
 * envelopes in one handler.
 */
export function createApp() {
  const root = new OpenAPIHono<AppEnv>({ defaultHook: validationHook, router: new CachedRouter() });
  root.use("*", securityHeaders);
  const api = root.basePath("/api/v1");

  api.use(
    "*",
    serveAgainOnChangedKeyView(root),
    requestId,
    logRequest,
    allowBrowserClients,
    trackD1Stats,
    sealAuditChains,
    refuseDevelopmentSecrets,
    injectFaults,
    // An upload streams its file (up to 100 MiB) to R2 without reading it whole: the 1 MiB limit and the text
    // checks are for bodies read whole; its rows are checked when a job imports them.
    checkBodiesExcept(UPLOAD_PATH),
  );

  // In this order: a module's literal paths before another's parameters (invitations before users, whose
  // /users/{id} would claim /users/invitations).
  const modules = [
    healthRoutes,
    platformRoutes,
    sessionRoutes,
    passwordRoutes,
    invitationRoutes,
    userRoutes,
    apiKeyRoutes,
    reportRoutes,
    orderRoutes,
    productRoutes,
    merchantRoutes,
    warehouseRoutes,
    locationRoutes,
    countRoutes,
    inventoryRoutes,
    lotRoutes,
    holdRoutes,
    webhookRoutes,
    eventRoutes,
    settingsRoutes,
    barcodeRoutes,
    pickListRoutes,
    shipmentRoutes,
    uploadRoutes,
    jobRoutes,
    returnRoutes,
    billingRoutes,
    auditRoutes,
  ];
  for (const routes of modules) api.route("/", routes);

  publishOpenApi(api);
  root.route("/", webAppRoutes);
  root.onError(handleError);
  root.notFound(notFoundOrMethodNotAllowed(root));
  return root;
}
