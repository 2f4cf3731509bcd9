import { z } from "@hono/zod-openapi";
import { pingDatabases } from "../db/client";
import { API_VERSION } from "../http/api-version";
import { envelopeOf, ok } from "../http/envelope";
import { AppError } from "../http/errors";
import { createRouter } from "../http/router";
import { defineRoute } from "../pipeline/route";

const Health = z
  .object({
    status: z.literal("ok"),
    version: z.string(),
    time: z.string().openapi({ format: "date-time" }),
    database: z.literal("ok"),
  })
  .openapi("Health");

const getHealthRoute = defineRoute("public", {
  method: "get",
  path: "/health",
  operationId: "getHealth",
  tags: ["Meta"],
  summary: "Service health",
  description: "No authentication. 200 when the service and its database answer, 503 otherwise.",
  responses: {
    200: { description: "Healthy", content: { "application/json": { schema: envelopeOf(Health) } } },
  },
});

export const healthRoutes = createRouter().openapi(getHealthRoute, async (c) => {
  try {
    await pingDatabases(c.env);
  } catch {
    throw new AppError("SERVICE_UNAVAILABLE", "Database is not answering");
  }
  return ok(c, {
    status: "ok" as const,
    version: API_VERSION,
    time: new Date().toISOString(),
    database: "ok" as const,
  });
});
