import { eq } from "drizzle-orm";
import { changesOf, onlyRow, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { stockHolds as h } from "../db/schema/tenant";
import { conflict } from "../http/errors";
import { releaseHold, reservesStock, selectHolds, toHold } from "../stock";

import { getHold } from "./get-hold";

/**
 * `DELETE /inventory/holds/{id}`: gives the stock back (reason `released`; a hold already past its expiry
 * ends as `expired`, as the sweep would have). A hold that has already ended is 409, naming how.
 */
export async function deleteHold(tdb: TenantDb, id: string) {
  const hold = await getHold(tdb, id);
  if (!reservesStock(hold)) throw conflict(`Hold ${id} has already ended (${hold.status})`);
  const now = new Date().toISOString();
  const reason = hold.status === "expired" ? "expired" : "released";
  const written = await runBatch(tdb, {
    release: releaseHold(tdb, hold, reason, now),
    read: selectHolds(tdb, now, eq(h.id, id)),
  });
  // The status update comes last: no change means a concurrent release (the sweep, another DELETE) won.
  if (changesOf(written.release.at(-1) as D1Result) === 0) {
    throw conflict(`Hold ${id} has already ended`);
  }
  return toHold(onlyRow(written.read));
}
