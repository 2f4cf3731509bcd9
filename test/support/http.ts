import { exports } from "cloudflare:workers";
import type { DataAt, Method } from "./api-types";
import { assertDocumented } from "./openapi";

export const BASE = "http://localhost/api/v1";

export interface Envelope<T = unknown> {
  success: boolean;
  data: T;
  message: string | null;
  errors: string[] | null;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: Envelope<T>;
}

type Init = Omit<RequestInit, "body"> & { body?: unknown; headers?: Record<string, string> };

const isJson = (response: Response) =>
  /^application\/json\b/i.test(response.headers.get("content-type") ?? "");

/**
 * Sends a request to the Worker's real fetch handler, as an integrator would, and fails the calling test
 * when the served OpenAPI document does not describe the answer. For responses whose body the test reads
 * itself (streams, CSV downloads); `call` is the JSON shorthand. `through` replaces the handler, for an
 * app on substituted bindings (a production configuration, an injected outage).
 */
export async function fetchApi(
  request: Request,
  through: (request: Request) => Response | Promise<Response> = (r) => exports.default.fetch(r),
): Promise<Response> {
  const sent = request.clone();
  const response = await through(request);
  const body = isJson(response) ? await response.clone().json() : undefined;
  await assertDocumented(sent, response, body);
  return response;
}

/** Calls the Worker through its real fetch handler, as an integrator would. JSON bodies are encoded. */
export async function call<M extends Method, P extends string, T = DataAt<M, P>>(
  method: M,
  path: P,
  init: Init = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...init.headers };
  let body: BodyInit | undefined;
  if (typeof init.body === "string" || init.body instanceof ReadableStream) {
    body = init.body;
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["content-type"] ??= "application/json";
  }
  const request = new Request(`${BASE}${path}`, { ...init, method, headers, body });
  const sent = request.clone();
  const response = await exports.default.fetch(request);
  const text = await response.text();
  let parsed: Envelope<T>;
  try {
    parsed = JSON.parse(text) as Envelope<T>;
  } catch {
    parsed = { success: false, data: text as T, message: "not JSON", errors: null };
  }
  await assertDocumented(sent, response, isJson(response) ? parsed : undefined);
  return { status: response.status, headers: response.headers, body: parsed };
}

/** Request headers for a credential: a JWT (with its tenant) or an API key. */
export function bearer(token: string, tenantId?: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...(tenantId ? { "x-tenant-id": tenantId } : {}) };
}
