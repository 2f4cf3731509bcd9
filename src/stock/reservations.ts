import { and, eq, gt } from "drizzle-orm";
import type { Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { locations, lots, stockLevels } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import {
  allocate,
  byStockLevel,
  type LineDemand,
  nullsLast,
  type Reservation,
  type ShortLine,
  type StockCandidate,
} from "./allocation";
import { today, unexpired } from "./expiry";
import { expiredHoldsOf } from "./hold-projection";
import { releaseHold } from "./hold-release";
import { available, withLot } from "./projections";
import type { HoldRecord } from "./schemas";
import { changeLevel } from "./statements";
import { type ProductIds, productAmong } from "./with-components";

// Every reservation of stock (an order's lines, a hold) is planned and written here: read what is available
// (counting expired holds as free; never an expired lot), allocate first-expiring-first-out (a line pinned to a
// lot only from that lot), then one batch releases those expired holds and reserves.
// The stock_levels CHECK (reserved <= on_hand) is the guard: a racer that lost the stock fails its whole
// batch, and `reserveRacing` plans it again from a fresh read.

/** Where a reservation may draw from: one location, one warehouse's locations, or anywhere. */
export interface ReservationScope {
  warehouseId?: string;
  locationId?: string;
}

/**
 * The reads a reservation plans from (put them in the caller's read batch): stock at active, sellable
 * locations in the scope, never of an expired lot (expiry: src/stock/expiry.ts), and the expired holds in its way.
 */
export function reservationReads(
  tdb: TenantDb,
  productIds: ProductIds,
  scope: ReservationScope,
  now: string,
) {
  return {
    candidates: tdb.db
      .select({
        productId: stockLevels.productId,
        locationId: stockLevels.locationId,
        warehouseId: stockLevels.warehouseId,
        lotId: stockLevels.lotId,
        lotNumber: lots.number,
        expiresAt: lots.expiresAt,
        receivedAt: lots.createdAt,
        available,
      })
      .from(stockLevels)
      .innerJoin(
        locations,
        and(
          eq(locations.id, stockLevels.locationId),
          eq(locations.active, true),
          eq(locations.sellable, true),
        ),
      )
      .leftJoin(lots, withLot(tdb, stockLevels.lotId))
      .where(
        inTenant(
          tdb,
          stockLevels,
          productAmong(stockLevels.productId, productIds),
          scope.warehouseId ? eq(stockLevels.warehouseId, scope.warehouseId) : undefined,
          scope.locationId ? eq(stockLevels.locationId, scope.locationId) : undefined,
          // Not on_hand > reserved: an expired hold's stock is free for this reservation.
          gt(stockLevels.onHand, 0),
          unexpired(lots.expiresAt, today(new Date(now))),
        ),
      ),
    expiredHolds: expiredHoldsOf(tdb, productIds, now),
  };
}

/** A candidate as read: its lot's receipt (creation) time breaks ties between lots expiring together. */
type ReadCandidate = StockCandidate & { receivedAt: string | null };

export interface ReservationRead {
  candidates: ReadCandidate[];
  expiredHolds: HoldRecord[];
}

/**
 * The order stock is taken in: first-expiring-first-out (lots without expiry after those with, then oldest
 * receipt first), then most available, so a line is split over as few locations as possible. Stock without a
 * lot has no expiry and no receipt, so untracked products keep "most available first".
 */
const takenFirst = (a: ReadCandidate, b: ReadCandidate) =>
  nullsLast(a.expiresAt, b.expiresAt) ||
  nullsLast(a.receivedAt, b.receivedAt) ||
  b.available - a.available ||
  a.locationId.localeCompare(b.locationId);

/** The key of a stock level (product, location, lot) in a plan. */
const levelKey = (productId: string, locationId: string, lotId: string) =>
  `${productId}|${locationId}|${lotId}`;

export type ReservationPlan =
  | { reservations: Reservation[]; expiredHolds: HoldRecord[] }
  | { short: ShortLine[] };

/**
 * Allocates `lines` over the candidates (in `takenFirst` order), counting the stock of expired holds as
 * available (the write releases them first).
 */
export function planReservations(lines: readonly LineDemand[], read: ReservationRead): ReservationPlan {
  const freed = new Map<string, number>();
  for (const hold of read.expiredHolds) {
    for (const a of hold.allocations) {
      const key = levelKey(hold.productId, a.locationId, a.lotId ?? "");
      freed.set(key, (freed.get(key) ?? 0) + a.quantity);
    }
  }
  const candidates = read.candidates
    .map((c) => ({
      ...c,
      available: c.available + (freed.get(levelKey(c.productId, c.locationId, c.lotId)) ?? 0),
    }))
    .sort(takenFirst);
  const plan = allocate(lines, candidates);
  return "short" in plan ? plan : { reservations: plan.reservations, expiredHolds: read.expiredHolds };
}

/** Gives back the stock of holds that expired (reason `expired`): first in any batch that takes stock. */
export const releaseExpiredHolds = (tdb: TenantDb, holds: readonly HoldRecord[], now: string) =>
  holds.flatMap((hold) => releaseHold(tdb, hold, "expired", now));

/** Releases the expired holds the plan counted on, then reserves, in this order. */
export function reserve(
  tdb: TenantDb,
  reservations: readonly Reservation[],
  expiredHolds: readonly HoldRecord[],
  now: string,
): Statement[] {
  return [
    ...releaseExpiredHolds(tdb, expiredHolds, now),
    // Unguarded on purpose: the reserved <= on_hand CHECK is the guard.
    ...byStockLevel(reservations).map((s) => changeLevel(tdb, s, { reserved: s.quantity }, now)),
  ];
}

// A racer that loses stock between reading and writing re-reads and re-allocates; this bounds the retries.
const MAX_ATTEMPTS = 8;

/** Runs plan-and-write again while its batch loses the stock it planned on to a concurrent reservation. */
export async function reserveRacing<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      // Lost the stock to a concurrent reservation, or its location became non-sellable meanwhile (the
      // trigger refused it): plan again, at most MAX_ATTEMPTS times.
      answerFor(error, {
        stock_levels_reserved_check: () => undefined,
        location_not_sellable: () => undefined,
      });
      if (n === MAX_ATTEMPTS) throw conflict("Stock changed while reserving; retry the request");
    }
  }
}
