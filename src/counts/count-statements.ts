import { type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import type { CountRow } from "./records";

/** The count is still in `status` (inside a batch: as of the statement). */
export const inStatus = (tdb: TenantDb, countId: string, status: CountRow["status"]) =>
  sql`exists (select 1 from inventory_counts where tenant_id = ${tdb.tenantId} and id = ${countId} and status = ${status})`;

/** The serials of a product in stock at a location, as a JSON array (inside a statement). */
export const serialsOnHand = (tenantId: SQL, productId: SQL, locationId: SQL) =>
  sql`select json_group_array(sn.serial) from serial_numbers sn where sn.tenant_id = ${tenantId}
    and sn.product_id = ${productId} and sn.location_id = ${locationId} and sn.on_hand = 1`;
