import { type DBSchema, type IDBPDatabase, openDB } from "idb";

// The floor's durable storage on the device (IndexedDB, through the `idb` library's promises): the scans waiting
// to reach the server, and what each floor screen needs to keep working without the network.

/** The writes a floor screen makes; each kind is one API call (queue.ts sends it). */
export type WriteKind = "pick" | "short" | "receive" | "count-lines" | "count-submit";

/** A confirmed scan's write, stored before the screen confirms it and sent (once) when the server is reachable. */
export interface QueuedWrite {
  /** Its place in line: writes are sent in this order. */
  seq?: number;
  /** The `Idempotency-Key` it is sent with, every time: the server applies it once. */
  key: string;
  tenantId: string;
  /** Who scanned: only their session sends it (keys belong to the user who claimed them). */
  userId: string;
  kind: WriteKind;
  /** The floor work it belongs to (`pick:<id>`, `receive:<id>`, `count:<id>`). */
  subject: string;
  /** The id in the call's path (pick list, order or count). */
  id: string;
  body: unknown;
  /** What the screen shows done meanwhile: units added to a line (picked, short, received). */
  effect: { lineId: string; units: number } | null;
  /** What was scanned, in words ("Pick 3 MUG-1 from A1, line 2"). */
  label: string;
  /** What to do when the server refuses it ("Put the 3 MUG-1 back in A1"). */
  undo: string;
  createdAt: string;
  /** The server's refusal, kept until the worker has dealt with it. */
  refusal?: { status: number; message: string; errors: string[] };
}

/** What a floor screen saved to work without the network: the server's data, and the device's own state. */
export interface SavedWork<D = unknown, S = unknown> {
  subject: string;
  /** How the floor screen names it ("Pick list 3f2a1c", "PO-000012"). */
  title: string;
  tenantId: string;
  savedAt: string;
  /** As the server last answered. */
  data: D;
  /** This device's own state for the work (totes, a count's tallies): never replaced by the server's. */
  device: S;
}

interface FloorDb extends DBSchema {
  writes: { key: number; value: QueuedWrite; indexes: { subject: string } };
  work: { key: string; value: SavedWork };
}

let opened: Promise<IDBPDatabase<FloorDb>> | undefined;

export function floorDb(): Promise<IDBPDatabase<FloorDb>> {
  opened ??= openDB<FloorDb>("wms-floor", 1, {
    upgrade(db) {
      db.createObjectStore("writes", { keyPath: "seq", autoIncrement: true }).createIndex(
        "subject",
        "subject",
      );
      db.createObjectStore("work", { keyPath: "subject" });
    },
  });
  return opened;
}
