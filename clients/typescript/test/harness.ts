// What the harness (clients/harness/run.mjs) hands the tests: URLs and credentials, and the proxy's controls.
export function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the client tests with npm run test:clients`);
  return value;
}

export const BASE_URL = env("WAREHOUSE_BASE_URL");

async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${BASE_URL}/__harness/${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as T;
}

export type LoggedRequest = {
  method: string;
  path: string;
  idempotencyKey: string | null;
  consistencyToken: string | null;
  status: number;
  requestId: string | null;
  userAgent: string | null;
};

export const proxy = {
  log: () => control<LoggedRequest[]>("GET", "log"),
  clearLog: () => control("DELETE", "log"),
  /** Cuts the connection after the server answered the next request whose body contains `match`. */
  dropResponse: (match: string) => control("POST", "drop", { match }),
  requestsMatching: (match: string) =>
    control<{
      requests: { idempotencyKey: string | null; dropped: boolean; replayed: boolean; status: number }[];
    }>("GET", `drop?match=${encodeURIComponent(match)}`),
  /** Answers the next `times` requests whose `METHOD /path` contains `match` with `status` (or, with `hang`, never). */
  fault: (fault: { match: string; status?: number; times?: number; retryAfter?: number; hang?: boolean }) =>
    control("POST", "fault", fault),
  /** How many requests matched the fault (answered by it, or forwarded after it ran out). */
  faultSeen: async (match: string) =>
    (await control<{ seen: number }>("GET", `fault?match=${encodeURIComponent(match)}`)).seen,
  sendConsistencyToken: (value: string) => control("POST", "consistency-token", { value }),
  webhooks: (type: string, waitSeconds: number) =>
    control<{ headers: Record<string, string>; body: string }[]>(
      "GET",
      `webhooks?type=${encodeURIComponent(type)}&wait=${waitSeconds}`,
    ),
};

export const unique = () =>
  `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
