import { sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { TenantDb } from "../db/client";

/** The code of the packing location a warehouse gets with its first pick list when it has none. */
export const PACKING_CODE = "PACKING";

/** The warehouse's packing location, created with its first pick list when it has none. */
export const createPackingLocation = (tdb: TenantDb, warehouseId: string, now: string) =>
  sql`insert into locations (id, tenant_id, warehouse_id, code, name, type, active, created_at, updated_at)
    values (${uuidv7()}, ${tdb.tenantId}, ${warehouseId}, ${PACKING_CODE}, 'Packing', 'packing', 1, ${now}, ${now})
    on conflict (tenant_id, warehouse_id, code) do nothing`;
