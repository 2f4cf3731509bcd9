import createClient from "openapi-fetch";
import type { components, paths } from "./openapi";

export type Schemas = components["schemas"];

/** Credentials the API client attaches; the session module provides them (see session/session.ts). */
export interface Credentials {
  /** A valid access token, refreshed first when it is about to expire; null when signed out. */
  accessToken(): Promise<string | null>;
  /** The API said 401 to a token we thought valid: get a new one (null when the session has ended). */
  renew(): Promise<string | null>;
  tenantId(): string | null;
}

let credentials: Credentials | null = null;
export function setCredentials(source: Credentials) {
  credentials = source;
}

/** An answer of the API that is not a success, carrying the envelope's message and per-problem errors. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors: string[] = [],
  ) {
    super(message);
  }
}

async function send(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch {
    throw new ApiError("The server cannot be reached. Check your connection and try again.", 0);
  }
}

/** Adds the access token and tenant to every call; a 401 gets one renewed token and one retry. */
async function authorizedFetch(request: Request): Promise<Response> {
  const token = await credentials?.accessToken();
  if (!token) return send(request);
  const retry = request.clone();
  const tenantId = credentials?.tenantId();
  const authorize = (target: Request, bearer: string) => {
    target.headers.set("Authorization", `Bearer ${bearer}`);
    if (tenantId) target.headers.set("X-Tenant-Id", tenantId);
    return target;
  };
  const response = await send(authorize(request, token));
  if (response.status !== 401) return response;
  const renewed = await credentials?.renew();
  return renewed ? send(authorize(retry, renewed)) : response;
}

/** The typed client of the API (types generated from the served OpenAPI document, see ./openapi.ts). */
export const api = createClient<paths>({ baseUrl: location.origin, fetch: authorizedFetch });

/** The `data` of a success envelope (a report's 200 may also be CSV text: that is not an envelope). */
type EnvelopeData<D> = D extends { data: infer T } ? T : never;

function errorOf(error: unknown, response: Response): ApiError {
  const envelope = error as { message?: unknown; errors?: unknown } | undefined;
  if (envelope && typeof envelope.message === "string") {
    const errors = Array.isArray(envelope.errors) ? envelope.errors.map(String) : [];
    return new ApiError(envelope.message, response.status, errors);
  }
  return new ApiError(
    `The server answered ${response.status} ${response.statusText}`.trim(),
    response.status,
  );
}

/** The `data` of a successful envelope, or an ApiError with the API's own message. */
export async function unwrap<D>(
  call: Promise<{ data?: D; error?: unknown; response: Response }>,
): Promise<EnvelopeData<D>> {
  const { data, error, response } = await call;
  if (!response.ok || typeof data !== "object" || data === null) throw errorOf(error, response);
  return (data as unknown as { data: EnvelopeData<D> }).data;
}
