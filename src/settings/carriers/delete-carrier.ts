import { eq } from "drizzle-orm";
import type { TenantDb } from "../../db/client";
import { carrierSettings } from "../../db/schema/tenant";
import { inTenant } from "../../db/tenant-scope";
import { notFound } from "../../http/errors";
import { carrierRecord } from "./records";

/** `DELETE /settings/carriers/{code}`: shipments of that carrier are labelled by the manual carrier again. */
export async function deleteCarrier(tdb: TenantDb, code: string) {
  const [row] = await tdb.db
    .delete(carrierSettings)
    .where(inTenant(tdb, carrierSettings, eq(carrierSettings.code, code)))
    .returning();
  if (!row) throw notFound(`Carrier ${code}`);
  return carrierRecord(row);
}
