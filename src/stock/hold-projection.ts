import { asc, eq, lte, type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { stockHolds as h } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { nullsLast } from "./allocation";
import type { HoldRecord, HoldStatus } from "./schemas";
import { type ProductIds, productAmong } from "./with-components";

/** A hold's status as the API shows it: an active hold past its expiry is `expired` before the sweep gets to it. */
export const holdStatusAt = (now: string) =>
  sql<HoldStatus>`case when ${h.status} = 'active' and ${h.expiresAt} <= ${now} then 'expired' else ${h.status} end`;

/**
 * Holds as the API shows them (allocations as one JSON column), filtered by `conditions`. The subquery names
 * the outer table in full: drizzle writes a single table's columns unqualified, which the join would make ambiguous.
 */
export function selectHolds(tdb: TenantDb, now: string, ...conditions: (SQL | undefined)[]) {
  return tdb.db
    .select({
      id: h.id,
      productId: h.productId,
      quantity: h.quantity,
      status: holdStatusAt(now),
      reference: h.reference,
      locationId: h.locationId,
      warehouseId: h.warehouseId,
      allocations: sql<string>`(select json_group_array(json_object('locationId', a.location_id,
        'warehouseId', a.warehouse_id, 'lotId', nullif(a.lot_id, ''), 'lotNumber', l.number,
        'expiresAt', l.expires_at, 'quantity', a.quantity))
        from stock_hold_allocations a left join lots l on l.tenant_id = a.tenant_id and l.id = a.lot_id
        where a.tenant_id = stock_holds.tenant_id and a.hold_id = stock_holds.id)`,
      expiresAt: h.expiresAt,
      orderId: h.orderId,
      releasedAt: h.releasedAt,
      createdAt: h.createdAt,
      updatedAt: h.updatedAt,
    })
    .from(h)
    .where(inTenant(tdb, h, ...conditions));
}

export type HoldRow = Omit<HoldRecord, "allocations"> & { allocations: string };

type Allocation = HoldRecord["allocations"][number];

/** Allocations as a hold shows them: first-expiring lot first (no expiry last), then by lot and location. */
export const inShownOrder = (allocations: Allocation[]): Allocation[] =>
  allocations.sort(
    (a, b) =>
      nullsLast(a.expiresAt, b.expiresAt) ||
      nullsLast(a.lotNumber, b.lotNumber) ||
      a.locationId.localeCompare(b.locationId),
  );

export const toHold = (row: HoldRow): HoldRecord => ({
  ...row,
  allocations: inShownOrder(JSON.parse(row.allocations) as Allocation[]),
});

/** Whether a hold read through `selectHolds` still reserves stock (active, or expired but not yet released). */
export const reservesStock = (hold: HoldRecord) => hold.releasedAt === null;

// Expired holds a reservation releases in its own batch; any beyond these the minute's sweep releases.
const EXPIRED_PER_RESERVATION = 50;

/** Holds of these products that expired but still reserve stock, for a reservation to release first. */
export function expiredHoldsOf(tdb: TenantDb, productIds: ProductIds, now: string) {
  return selectHolds(
    tdb,
    now,
    productAmong(h.productId, productIds),
    eq(h.status, "active"),
    lte(h.expiresAt, now),
  )
    .orderBy(asc(h.expiresAt))
    .limit(EXPIRED_PER_RESERVATION);
}
