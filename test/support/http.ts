import { exports } from "cloudflare:workers";

export const BASE = "http://localhost/api/v1";

export interface Envelope<T = unknown> {
  success: boolean;
  data: T;
  message: string | null;
  errors: string[] | null;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: Envelope<T>;
}

type Init = Omit<RequestInit, "body"> & { body?: unknown; headers?: Record<string, string> };

/** Calls the Worker through its real fetch handler, as an integrator would. JSON bodies are encoded. */
export async function call<T = any>(method: string, path: string, init: Init = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...init.headers };
  let body: BodyInit | undefined;
  if (typeof init.body === "string" || init.body instanceof ReadableStream) {
    body = init.body;
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await exports.default.fetch(
    new Request(`${BASE}${path}`, { ...init, method, headers, body }),
  );
  const text = await response.text();
  let parsed: Envelope<T>;
  try {
    parsed = JSON.parse(text) as Envelope<T>;
  } catch {
    parsed = { success: false, data: text as T, message: "not JSON", errors: null };
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** Request headers for a credential: a JWT (with its tenant) or an API key. */
export function bearer(token: string, tenantId?: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...(tenantId ? { "x-tenant-id": tenantId } : {}) };
}
