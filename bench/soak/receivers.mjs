// Local webhook receivers, one HTTP server per behaviour; each tenant subscribes at `/<tenantId>`. Every
// request a receiver got is recorded (before it answers, as a real receiver would process it).
import { createServer } from "node:http";

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/**
 * healthy: 200 at once. slow: 200 after 1-3 s (inside the 10 s delivery timeout). flaky: 500 half the time.
 * gone: 410 (the subscription should be disabled). stalling: healthy, except while `stall` is on: then it
 * takes in one new webhook-id in four and never answers (the delivery times out), and answers its redelivery.
 */
const BEHAVIOURS = {
  healthy: async () => 200,
  slow: async () => {
    await sleep(1000 + Math.random() * 2000);
    return 200;
  },
  flaky: async () => (Math.random() < 0.5 ? 500 : 200),
  gone: async () => 410,
  stalling: async (receiver, webhookId) => {
    if (receiver.stalled.has(webhookId)) return 200;
    receiver.stalled.add(webhookId);
    // One new delivery in four: locally a single consumer delivers one batch at a time, and every stall holds
    // its batch for the whole 10 s timeout.
    if (!receiver.stall || receiver.stalled.size % 4 !== 0) return 200;
    receiver.stalls++;
    return null; // never answer
  },
};

/** The receivers that must get every matching event exactly once (after de-duplication). */
export const HEALTHY = ["healthy", "slow", "stalling"];

export async function startReceivers(firstPort) {
  const received = [];
  const receivers = {};
  let port = firstPort;
  for (const [name, respond] of Object.entries(BEHAVIOURS)) {
    const receiver = { name, stall: false, stalled: new Set(), stalls: 0, url: `http://127.0.0.1:${port}` };
    receiver.server = createServer(async (request, response) => {
      const chunks = [];
      for await (const chunk of request) chunks.push(chunk);
      const webhookId = request.headers["webhook-id"];
      let type;
      try {
        type = JSON.parse(Buffer.concat(chunks).toString()).type;
      } catch {}
      received.push({ url: `${receiver.url}${request.url}`, webhookId, type, at: Date.now() });
      const status = await respond(receiver, webhookId);
      if (status === null) return; // the connection stays open until the sender gives up
      response.writeHead(status).end();
    });
    await new Promise((done) => receiver.server.listen(port, "127.0.0.1", done));
    receivers[name] = receiver;
    port++;
  }
  return {
    receivers,
    received,
    close: () =>
      Promise.all(Object.values(receivers).map((r) => r.server.closeAllConnections?.() ?? r.server.close())),
  };
}
