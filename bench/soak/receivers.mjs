// The soak's side of the webhook receivers (receiver-thread.mjs runs them in their own thread): their URLs, every
// request they got, the connections that ended before an answer, and the stalling receiver's switch.
import { Worker } from "node:worker_threads";

/** The receivers that must get every matching event exactly once (after de-duplication). */
export const HEALTHY = ["healthy", "slow", "stalling"];

export async function startReceivers(firstPort) {
  const thread = new Worker(new URL("./receiver-thread.mjs", import.meta.url), { workerData: { firstPort } });
  const received = [];
  /** Connections that ended before their request was answered, by receiver and reason. */
  const dropped = [];
  const receivers = {};
  let closed;
  const ready = new Promise((done, fail) => {
    thread.once("error", fail);
    thread.on("message", (message) => {
      if (message.kind === "received") received.push(message.record);
      if (message.kind === "dropped") dropped.push(message);
      if (message.kind === "stalls") receivers[message.name].stalls = message.stalls;
      if (message.kind === "closed") closed?.();
      if (message.kind !== "ready") return;
      for (const [name, url] of Object.entries(message.urls)) receivers[name] = { name, url, stalls: 0 };
      let stall = false;
      Object.defineProperty(receivers.stalling, "stall", {
        get: () => stall,
        set(on) {
          stall = on;
          thread.postMessage({ kind: "stall", on });
        },
      });
      done();
    });
  });
  await ready;
  return {
    receivers,
    received,
    dropped,
    close: async () => {
      await new Promise((done) => {
        closed = done;
        thread.postMessage({ kind: "close" });
      });
      await thread.terminate();
    },
  };
}
