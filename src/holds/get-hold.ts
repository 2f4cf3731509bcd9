import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { stockHolds as h } from "../db/schema/tenant";
import { notFound } from "../http/errors";
import { selectHolds, toHold } from "../stock";

/** `GET /inventory/holds/{id}`. */
export async function getHold(tdb: TenantDb, id: string) {
  const [row] = await selectHolds(tdb, new Date().toISOString(), eq(h.id, id));
  if (!row) throw notFound("Hold");
  return toHold(row);
}
