// The local webhook receivers, one HTTP server per behaviour, running in their own thread (receivers.mjs starts
// it): the soak's main thread runs long synchronous invariant checks, and a receiver stalled by them for seconds
// would not behave like the independent service it stands for. Each tenant subscribes at `/<tenantId>`. Every
// request a receiver got is reported (before it answers, as a real receiver would process it), and so is every
// connection that ended before its request was answered (what a sender sees as a lost connection).
import { createServer } from "node:http";
import { parentPort, workerData } from "node:worker_threads";

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
    parentPort.postMessage({ kind: "stalls", name: receiver.name, stalls: receiver.stalls });
    return null; // never answer
  },
};

const receivers = {};
let port = workerData.firstPort;
for (const [name, respond] of Object.entries(BEHAVIOURS)) {
  const receiver = { name, stall: false, stalled: new Set(), stalls: 0, url: `http://127.0.0.1:${port}` };
  const dropped = (reason) => parentPort.postMessage({ kind: "dropped", name, reason, at: Date.now() });
  receiver.server = createServer(async (request, response) => {
    let silent = false;
    response.on("close", () => {
      if (!response.writableFinished && !silent) dropped("closed before the answer");
    });
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const webhookId = request.headers["webhook-id"];
    let type;
    try {
      type = JSON.parse(Buffer.concat(chunks).toString()).type;
    } catch {}
    parentPort.postMessage({
      kind: "received",
      record: { url: `${receiver.url}${request.url}`, webhookId, type, at: Date.now() },
    });
    const status = await respond(receiver, webhookId);
    if (status === null) {
      silent = true;
      return; // the connection stays open until the sender gives up
    }
    response.writeHead(status).end();
  });
  // A connection that broke before a request was read (a reset, a malformed request) never reaches the handler.
  receiver.server.on("clientError", (error, socket) => {
    dropped(`client error ${error.code ?? error.message}`);
    socket.destroy();
  });
  await new Promise((done) => receiver.server.listen(port, "127.0.0.1", done));
  receivers[name] = receiver;
  port++;
}

parentPort.on("message", (message) => {
  if (message.kind === "stall") receivers.stalling.stall = message.on;
  if (message.kind === "close") {
    for (const receiver of Object.values(receivers)) receiver.server.closeAllConnections();
    Promise.all(Object.values(receivers).map((r) => new Promise((done) => r.server.close(done)))).then(() =>
      parentPort.postMessage({ kind: "closed" }),
    );
  }
});
parentPort.postMessage({
  kind: "ready",
  urls: Object.fromEntries(Object.values(receivers).map((r) => [r.name, r.url])),
});
