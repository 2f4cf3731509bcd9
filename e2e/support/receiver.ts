import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll } from "vitest";

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * An integrator's webhook receiver on this machine (wrangler dev admits http://localhost receivers): records
 * every request and answers with `status`, which a test may change between deliveries.
 */
export async function startReceiver() {
  const received: Delivery[] = [];
  const state = { status: 200 };
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.writeHead(state.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { url: `http://localhost:${port}/hooks/warehouse`, received, state };
}
