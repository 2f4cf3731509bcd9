import { type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { insertSelect } from "../db/insert-select";
import { deletedStockLevels, locations, products, stockLevels } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";

/**
 * The statement that keeps, for a late storage snapshot, each merchant's stock level about to be deleted where
 * `condition` holds (with its location, warehouse or product): its key, its location's type and its product's
 * merchant, which go with the deleted rows. Put it before the delete, in the same batch and under the same
 * condition, so it keeps exactly the levels deleted. The tenant's own goods are never snapshotted: not kept.
 */
export const keepDeletedLevels = (tdb: TenantDb, condition: SQL, deletedAt: string) =>
  insertSelect(
    deletedStockLevels,
    {
      tenantId: sql`${stockLevels.tenantId}`,
      productId: sql`${stockLevels.productId}`,
      locationId: sql`${stockLevels.locationId}`,
      lotId: sql`${stockLevels.lotId}`,
      merchantId: sql`${products.merchantId}`,
      locationType: sql`${locations.type}`,
      deletedAt,
    },
    sql`from ${stockLevels}
      join ${products} on ${products.tenantId} = ${stockLevels.tenantId} and ${products.id} = ${stockLevels.productId}
      join ${locations} on ${locations.tenantId} = ${stockLevels.tenantId} and ${locations.id} = ${stockLevels.locationId}
      where ${inTenant(tdb, stockLevels, condition)} and ${products.merchantId} is not null
      on conflict do nothing`,
  );
