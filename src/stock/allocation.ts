import type { LineLot } from "../db/schema/tenant";

/** One place stock is kept: a (product, location, lot). */
interface StockPlace {
  productId: string;
  locationId: string;
  warehouseId: string;
  /** '' for stock without a lot. */
  lotId: string;
  lotNumber: string | null;
  expiresAt: string | null;
}

/** Stock that could serve an order, with what is available there now. */
export interface StockCandidate extends StockPlace {
  available: number;
}

export interface LineDemand {
  lineId: string;
  productId: string;
  quantity: number;
  /** A lot the line is pinned to: only that lot's stock serves it. */
  lotNumber?: string | null;
}

/** A line's quantity reserved at one place. */
export interface Reservation extends StockPlace {
  lineId: string;
  quantity: number;
}

export interface ShortLine {
  index: number;
  productId: string;
  requested: number;
  lotNumber: string | null;
  /** What is still available for this line after the order's earlier lines of the same product. */
  available: number;
}

/**
 * Decides where each line's quantity is reserved: from the candidates in the order given (the caller
 * sorts them: first-expiring lot first, then most available, so a line is split over as few locations
 * as possible). Lines of the same product draw from the same pool; a pinned line only from its lot.
 * All lines or none: any short line -> `short`.
 */
export function allocate(
  lines: readonly LineDemand[],
  candidates: readonly StockCandidate[],
): { reservations: Reservation[] } | { short: ShortLine[] } {
  const remaining = candidates.map((candidate) => ({ ...candidate }));
  const reservations: Reservation[] = [];
  const short: ShortLine[] = [];
  lines.forEach((line, index) => {
    const lotNumber = line.lotNumber ?? null;
    const pool = remaining.filter(
      (c) =>
        c.productId === line.productId &&
        c.available > 0 &&
        (lotNumber === null || c.lotNumber === lotNumber),
    );
    const available = pool.reduce((sum, c) => sum + c.available, 0);
    if (available < line.quantity) {
      short.push({ index, productId: line.productId, requested: line.quantity, lotNumber, available });
      return;
    }
    let needed = line.quantity;
    for (const c of pool) {
      if (needed === 0) break;
      const take = Math.min(needed, c.available);
      c.available -= take;
      needed -= take;
      reservations.push({
        lineId: line.lineId,
        productId: line.productId,
        locationId: c.locationId,
        warehouseId: c.warehouseId,
        lotId: c.lotId,
        lotNumber: c.lotNumber,
        expiresAt: c.expiresAt,
        quantity: take,
      });
    }
  });
  return short.length ? { short } : { reservations };
}

/** Orders nulls (no expiry, no lot) after values, values ascending. */
export const nullsLast = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a.localeCompare(b);

/** Sums reservations per (product, location, lot): one guarded stock update each. */
export function byStockLevel<
  T extends { productId: string; locationId: string; lotId?: string; quantity: number },
>(reservations: readonly T[]): T[] {
  const merged = new Map<string, T>();
  for (const r of reservations) {
    const key = `${r.productId}|${r.locationId}|${r.lotId ?? ""}`;
    const existing = merged.get(key);
    if (existing) existing.quantity += r.quantity;
    else merged.set(key, { ...r });
  }
  return [...merged.values()];
}

/** The lots a line was allocated, summed per lot (stored on the line; empty for stock without lots). */
export function lotsOfLine(reservations: readonly Reservation[], lineId: string): LineLot[] | null {
  const lots = new Map<string, LineLot>();
  for (const r of reservations) {
    if (r.lineId !== lineId || r.lotId === "" || r.lotNumber === null) continue;
    const lot = lots.get(r.lotId);
    if (lot) lot.quantity += r.quantity;
    else
      lots.set(r.lotId, {
        lotId: r.lotId,
        lotNumber: r.lotNumber,
        expiresAt: r.expiresAt,
        quantity: r.quantity,
      });
  }
  return lots.size ? [...lots.values()] : null;
}
