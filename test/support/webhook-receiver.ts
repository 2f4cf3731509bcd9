import { afterEach, vi } from "vitest";

export interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Stands in for the integrator's receiver, which is outside the system: outbound fetches from the
 * Worker are answered by `respond` and recorded. Every other fetch is refused.
 */
export function stubReceiver(
  respond: (request: Received) => Response | Promise<Response> = () => new Response("ok"),
) {
  const received: Received[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init as RequestInit);
    const entry = {
      url: request.url,
      headers: Object.fromEntries(request.headers.entries()),
      body: await request.text(),
    };
    received.push(entry);
    return respond(entry);
  });
  return { received, spy };
}

afterEach(() => {
  vi.restoreAllMocks();
});
