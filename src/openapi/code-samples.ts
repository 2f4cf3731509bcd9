import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import samples from "./code-samples.json";

type Sample = { lang: string; label: string; source: string };
const byOperation: Record<string, Sample[] | undefined> = samples;

/**
 * Gives each documented operation its calls through the four official clients as `x-codeSamples`, which the docs
 * page (Scalar) shows next to the HTTP examples. The samples are generated with the clients by
 * `npm run clients:generate` (scripts/clients/render-code-samples.ts), so they cannot name a method that is not there;
 * call this after every route is mounted, before the document is generated.
 */
export function addCodeSamples(api: OpenAPIHono<AppEnv>) {
  for (const definition of api.openAPIRegistry.definitions) {
    if (definition.type !== "route") continue;
    const route = definition.route as typeof definition.route & { "x-codeSamples"?: Sample[] };
    const forOperation = route.operationId ? byOperation[route.operationId] : undefined;
    if (forOperation) route["x-codeSamples"] = forOperation;
  }
}
