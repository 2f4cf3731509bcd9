import type { TenantDb } from "../db/client";
import { locations } from "../db/schema/tenant";
import { notFound } from "../http/errors";
import { locationRecord, ofLocation } from "./records";

export async function findLocation(tdb: TenantDb, id: string) {
  const [row] = await tdb.db.select().from(locations).where(ofLocation(tdb, id)).limit(1);
  return row;
}

export async function getLocation(tdb: TenantDb, id: string) {
  const row = await findLocation(tdb, id);
  if (!row) throw notFound("Location");
  return locationRecord(row);
}
