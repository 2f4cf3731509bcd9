import { count, desc, eq } from "drizzle-orm";
import { changesOf, onlyRow, runBatch } from "../../db/batch";
import type { TenantDb } from "../../db/client";
import { readPage } from "../../db/pages";
import { stockHolds as h } from "../../db/schema/tenant";
import { inTenant } from "../../db/tenant-scope";
import { conflict, notFound } from "../../http/errors";
import { offsetOf } from "../../http/pagination";
import { holdStatusAt, reservesStock, selectHolds, toHold } from "../../stock/hold-projection";
import { releaseHold } from "../../stock/hold-release";
import type { HoldsQuery } from "./schemas";

/** `GET /inventory/holds`, newest first. */
export function listHolds(tdb: TenantDb, query: HoldsQuery) {
  const now = new Date().toISOString();
  const filters = [
    query.productId ? eq(h.productId, query.productId) : undefined,
    query.reference ? eq(h.reference, query.reference) : undefined,
    query.status ? eq(holdStatusAt(now), query.status) : undefined,
  ];
  return readPage(
    tdb,
    query,
    {
      rows: selectHolds(tdb, now, ...filters)
        .orderBy(desc(h.createdAt), desc(h.id))
        .limit(query.pageSize)
        .offset(offsetOf(query)),
      count: tdb.db
        .select({ value: count() })
        .from(h)
        .where(inTenant(tdb, h, ...filters)),
    },
    toHold,
  );
}

/** `GET /inventory/holds/{id}`. */
export async function getHold(tdb: TenantDb, id: string) {
  const [row] = await selectHolds(tdb, new Date().toISOString(), eq(h.id, id));
  if (!row) throw notFound("Hold");
  return toHold(row);
}

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
