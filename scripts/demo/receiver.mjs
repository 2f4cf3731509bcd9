// The webhook receiver `npm run dev` runs next to the server, so the demo tenant's webhook has somewhere to deliver:
// it answers every delivery 204 and keeps nothing (the deliveries, their attempts and answers are the API's, under
// Configuration > Webhooks in the web app). It listens on a free port of this machine only.
import { createServer } from "node:http";

/** Starts the receiver; resolves to its URL and a `close()`. */
export async function startWebhookReceiver() {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(204).end());
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  server.unref(); // never what keeps `npm run dev` alive
  return {
    url: `http://localhost:${server.address().port}/webhooks/demo`,
    close: () => server.close(),
  };
}
