import { eq } from "drizzle-orm";
import type { TenantDb } from "../../db/client";
import { carrierSettings } from "../../db/schema/tenant";
import { inTenant } from "../../db/tenant-scope";
import { notFound } from "../../http/errors";
import type { CarrierRecord } from "./schemas";

export type CarrierRow = typeof carrierSettings.$inferSelect;

export const carrierRecord = (row: CarrierRow): CarrierRecord => ({
  code: row.code,
  adapter: row.adapter,
  url: row.url,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** The tenant's setting for a carrier code, with its sealed secret; undefined when the code is not configured. */
export async function findCarrier(tdb: TenantDb, code: string): Promise<CarrierRow | undefined> {
  const [row] = await tdb.db
    .select()
    .from(carrierSettings)
    .where(inTenant(tdb, carrierSettings, eq(carrierSettings.code, code)));
  return row;
}

export async function getCarrier(tdb: TenantDb, code: string): Promise<CarrierRow> {
  const row = await findCarrier(tdb, code);
  if (!row) throw notFound(`Carrier ${code}`);
  return row;
}
