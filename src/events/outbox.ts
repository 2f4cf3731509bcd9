import { uuidv7 } from "uuidv7";
import type { TenantDb } from "../db/client";
import { outboxEvents } from "../db/schema";
import type { EventType } from "./catalog";

/**
 * An outbox row to put into the same `db.batch` as the change that causes it, so an event exists
 * exactly when its change committed. `data` is the full resource after the change.
 */
export function outboxInsert(tdb: TenantDb, type: EventType, data: unknown, now: string) {
  const id = uuidv7();
  return {
    id,
    query: tdb.db
      .insert(outboxEvents)
      .values({ id, tenantId: tdb.tenantId, type, payload: data, createdAt: now }),
  };
}
