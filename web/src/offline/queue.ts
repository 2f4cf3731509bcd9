import { useEffect, useState } from "preact/hooks";
import { api, newIdempotencyKey } from "../api/client";
import { signal } from "../scan/feedback";
import { currentUserId, sessionTenantId } from "../session/session";
import { floorDb, type QueuedWrite, type SavedWork, type WriteKind } from "./db";

// The floor's writes, store and forward: a confirmed scan's write is stored on the device (IndexedDB) before the
// screen confirms it, then sent in the order it was made, one at a time, each with its own Idempotency-Key, so
// that sending it again (after a lost answer, a reload, a crash) changes nothing the first time did not. The key is
// the API client's (`newIdempotencyKey`), made when the worker scans and passed as the header, so the client's own
// retries of a lost answer within one send and this queue's sends across reloads use the same key.

type Envelope = { data?: unknown; error?: unknown; response: Response };
const keyed = (write: QueuedWrite) => ({ "Idempotency-Key": write.key });

/** The one API call of each kind of write. */
const SEND: Record<WriteKind, (write: QueuedWrite) => Promise<Envelope>> = {
  pick: (w) =>
    api.POST("/api/v1/pick-lists/{id}/picks", {
      params: { path: { id: w.id } },
      body: w.body as never,
      headers: keyed(w),
    }),
  short: (w) =>
    api.POST("/api/v1/pick-lists/{id}/shorts", {
      params: { path: { id: w.id } },
      body: w.body as never,
      headers: keyed(w),
    }),
  receive: (w) =>
    api.POST("/api/v1/orders/{id}/receive", {
      params: { path: { id: w.id } },
      body: w.body as never,
      headers: keyed(w),
    }),
  // A count's line is recorded by PUT, keyed like every write (it sets the line's total).
  "count-lines": (w) =>
    api.PUT("/api/v1/inventory/counts/{id}/lines", {
      params: { path: { id: w.id } },
      body: w.body as never,
      headers: keyed(w),
    }),
  "count-submit": (w) =>
    api.POST("/api/v1/inventory/counts/{id}/submit", { params: { path: { id: w.id } }, headers: keyed(w) }),
};

/** Where each kind's answer (the changed pick list, order or count) goes in its saved work. */
const ANSWER_FIELD: Record<WriteKind, string> = {
  pick: "pickList",
  short: "pickList",
  receive: "order",
  "count-lines": "count",
  "count-submit": "count",
};

// What the device holds, mirrored in memory so that a screen shows a change in the same tick it is stored (the
// next queued scan is handled against it). IndexedDB stays the truth: the mirror is read from it when the page
// starts and when another tab says it changed something.
let writesMirror: QueuedWrite[] | null = null;
const workMirror = new Map<string, SavedWork>();
const listeners = new Set<() => void>();
const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("wms-floor") : null;

function notify() {
  for (const listener of listeners) listener();
}
/** This tab changed the device's storage: its screens and the other tabs' show it. */
function changed() {
  notify();
  channel?.postMessage("changed");
}
async function reread() {
  const db = await floorDb();
  writesMirror = await db.getAll("writes");
  for (const subject of workMirror.keys()) {
    const work = await db.get("work", subject);
    if (work) workMirror.set(subject, work);
    else workMirror.delete(subject);
  }
  notify();
}
channel?.addEventListener("message", () => void reread());

/** Re-renders the component whenever the writes or the saved work change (in any tab). */
export function useFloorChanges(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((n) => n + 1);
    listeners.add(bump);
    if (writesMirror === null) void reread();
    return () => void listeners.delete(bump);
  }, []);
  return version;
}

const mine = (w: QueuedWrite) => w.tenantId === sessionTenantId() && w.userId === currentUserId();

export type NewWrite = Omit<QueuedWrite, "seq" | "key" | "tenantId" | "userId" | "createdAt" | "refusal">;

/**
 * Stores a write, with the saved work's device state changed in the same transaction (a count's tally and the
 * write that sends it are stored together or not at all). Resolves once both are durable: only then may the
 * screen say the scan is taken. Then sends what waits, if the server can be reached.
 */
export async function enqueue(
  write: NewWrite,
  device?: { subject: string; change: (state: unknown) => unknown },
): Promise<QueuedWrite> {
  const tenantId = sessionTenantId();
  const userId = currentUserId();
  if (!tenantId || !userId) throw new Error("Sign in to scan");
  const db = await floorDb();
  const tx = db.transaction(["writes", "work"], "readwrite", { durability: "strict" });
  const stored: QueuedWrite = {
    ...write,
    key: newIdempotencyKey(),
    tenantId,
    userId,
    createdAt: new Date().toISOString(),
  };
  stored.seq = await tx.objectStore("writes").add(stored);
  let work: SavedWork | undefined;
  if (device) {
    const before = await tx.objectStore("work").get(device.subject);
    if (before) {
      work = { ...before, device: device.change(before.device) };
      await tx.objectStore("work").put(work);
    }
  }
  await tx.done;
  writesMirror = [
    ...(writesMirror ?? (await (await floorDb()).getAll("writes"))).filter((w) => w.seq !== stored.seq),
    stored,
  ];
  if (work) workMirror.set(work.subject, work);
  changed();
  void sendWaiting();
  return stored;
}

/** This user's writes in this tenant (of one work, when `subject` is given), in the order they were made. */
export async function writesOf(subject?: string): Promise<QueuedWrite[]> {
  writesMirror ??= await (await floorDb()).getAll("writes");
  return writesMirror
    .filter((w) => mine(w) && (!subject || w.subject === subject))
    .sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
}

/** The writes waiting to be sent and those the server refused (of one work, when `subject` is given). */
export function useWrites(subject?: string): {
  waiting: QueuedWrite[];
  refused: QueuedWrite[];
  ready: boolean;
} {
  useFloorChanges();
  const writes = (writesMirror ?? [])
    .filter((w) => mine(w) && (!subject || w.subject === subject))
    .sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  return {
    waiting: writes.filter((w) => !w.refusal),
    refused: writes.filter((w) => w.refusal),
    ready: writesMirror !== null,
  };
}

/** A refused write the worker has dealt with (done what its `undo` says): taken off the device. */
export async function dismiss(write: QueuedWrite) {
  if (write.seq === undefined) return;
  await (await floorDb()).delete("writes", write.seq);
  writesMirror = (writesMirror ?? []).filter((w) => w.seq !== write.seq);
  changed();
}

/** The saved work of `subject` as the device holds it now, or undefined (read from storage the first time). */
export async function savedWork<D, S>(subject: string): Promise<SavedWork<D, S> | undefined> {
  if (!workMirror.has(subject)) {
    const work = await (await floorDb()).get("work", subject);
    if (work) workMirror.set(subject, work);
  }
  const work = workMirror.get(subject);
  return work && work.tenantId === sessionTenantId() ? (work as SavedWork<D, S>) : undefined;
}

/** The saved work of `subject` from the mirror, without waiting (undefined until read once). */
export function mirroredWork<D, S>(subject: string): SavedWork<D, S> | undefined {
  const work = workMirror.get(subject);
  return work && work.tenantId === sessionTenantId() ? (work as SavedWork<D, S>) : undefined;
}

/** Every work saved on this device for the chosen tenant whose subject starts with `kind` ("pick:"). */
export async function savedWorks(kind: string): Promise<SavedWork[]> {
  const all = await (await floorDb()).getAll("work");
  return all.filter((w) => w.subject.startsWith(kind) && w.tenantId === sessionTenantId());
}

/** Saves what the server answered for a work, keeping the device's own state of it. */
export async function saveWork<D, S>(
  subject: string,
  title: string,
  data: D,
  initialDevice: S,
): Promise<SavedWork<D, S>> {
  const db = await floorDb();
  const tx = db.transaction("work", "readwrite");
  const before = await tx.store.get(subject);
  const work: SavedWork<D, S> = {
    subject,
    title,
    tenantId: sessionTenantId() ?? "",
    savedAt: new Date().toISOString(),
    data,
    device: before && before.tenantId === sessionTenantId() ? (before.device as S) : initialDevice,
  };
  await tx.store.put(work);
  await tx.done;
  workMirror.set(subject, work);
  changed();
  return work;
}

/** Changes the device's own state of a saved work (a tote assigned, a line skipped). */
export async function changeDevice<S>(subject: string, change: (state: S) => S) {
  const db = await floorDb();
  const tx = db.transaction("work", "readwrite");
  const before = await tx.store.get(subject);
  const work = before && { ...before, device: change(before.device as S) };
  if (work) await tx.store.put(work);
  await tx.done;
  if (work) workMirror.set(subject, work);
  changed();
}

/** Whether an answer means "not now" (the write waits and is sent again later), not "never". */
function sendLater(status: number, message: string): boolean {
  if (status === 0 || status === 401 || status === 408 || status === 429 || status >= 500) return true;
  // The same key is still being answered (the first try's request outlived the page that sent it).
  return status === 409 && message.includes("Idempotency-Key is still in progress");
}

const RETRY_MS = 5_000;
let retry: ReturnType<typeof setTimeout> | undefined;
let sending: Promise<void> | null = null;
let lookAgain = false;

/**
 * Sends the waiting writes of the signed-in user, oldest first, one at a time, until none waits or the server
 * cannot be reached (then again in 5 s, and at once when the browser says it is online). One tab sends at a time
 * (a Web Lock), so two tabs never send one write at once. A write the server refuses is kept with its refusal,
 * for the worker to see; the writes after it go on (each stands on its own). An answer is saved into the work it
 * changed before the write is taken off the device: a crash between the two sends it again, and its key makes
 * the server answer the same without doing it twice.
 */
export function sendWaiting(): Promise<void> {
  if (sending) {
    // A write stored while the sender runs: it looks again before it stops, and this caller waits for that too.
    lookAgain = true;
    return sending;
  }
  sending = (async () => {
    try {
      do {
        lookAgain = false;
        await navigator.locks.request("wms-floor-send", sendAll).catch(() => undefined);
      } while (lookAgain);
    } finally {
      // In the same step as the last look: a write stored after it starts a sender of its own.
      sending = null;
    }
  })();
  return sending;
}

/** Sends the waiting writes, oldest first, until none waits, or the server cannot be reached (then later). */
async function sendAll() {
  clearTimeout(retry);
  // Another tab may have sent some since this one last looked.
  writesMirror = await (await floorDb()).getAll("writes");
  for (;;) {
    const mineNow = await writesOf();
    const next = mineNow.find((w) => !w.refusal);
    if (!next) return;
    // A count submitted while a line of it was refused would be approved without that line: the submit is kept
    // back, listed with the refusals, until the worker has dealt with them and submits again.
    if (next.kind === "count-submit" && mineNow.some((w) => w.refusal && w.subject === next.subject)) {
      const undo = "Count the refused lines again, press Done on each, then submit the count again.";
      await refuse(
        { ...next, undo },
        {
          status: 0,
          message: "Not sent: a counted line of this count was refused.",
          errors: [],
        },
      );
      continue;
    }
    // The server's answer, or none (status 0: it could not be reached).
    const answer = await SEND[next.kind](next).catch(() => null);
    const status = answer?.response.status ?? 0;
    if (answer?.response.ok) {
      await settle(next, (answer.data as { data?: unknown } | undefined)?.data);
      continue;
    }
    const envelope = (answer?.error ?? {}) as { message?: string; errors?: string[] };
    const message = envelope.message ?? `The server answered ${status}`;
    if (sendLater(status, message)) {
      retry = setTimeout(() => void sendWaiting(), RETRY_MS);
      return;
    }
    await refuse(next, { status, message, errors: envelope.errors ?? [] });
  }
}

/** A write the server took: its answer into the saved work, and the write off the device, in one transaction. */
async function settle(write: QueuedWrite, answer: unknown) {
  const db = await floorDb();
  const tx = db.transaction(["writes", "work"], "readwrite", { durability: "strict" });
  const before = await tx.objectStore("work").get(write.subject);
  const work =
    before && answer && typeof before.data === "object"
      ? { ...before, data: { ...(before.data as object), [ANSWER_FIELD[write.kind]]: answer } }
      : undefined;
  if (work) await tx.objectStore("work").put(work);
  await tx.objectStore("writes").delete(write.seq as number);
  await tx.done;
  if (work) workMirror.set(work.subject, work);
  writesMirror = (writesMirror ?? []).filter((w) => w.seq !== write.seq);
  changed();
}

/** A write the server refused: kept, with why, for the worker to deal with; heard as a refused scan is. */
async function refuse(write: QueuedWrite, refusal: NonNullable<QueuedWrite["refusal"]>) {
  if (document.visibilityState === "visible") signal("refused");
  const refused = { ...write, refusal };
  await (await floorDb()).put("writes", refused);
  writesMirror = (writesMirror ?? []).map((w) => (w.seq === write.seq ? refused : w));
  changed();
}

// Send what waits when the page starts (a reload, a crash's reopening) and whenever the network comes back.
if (typeof window !== "undefined") {
  window.addEventListener("online", () => void sendWaiting());
}
