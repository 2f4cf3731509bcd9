/** Stock that could serve an order: one (product, location) with what is available there now. */
export interface StockCandidate {
  productId: string;
  locationId: string;
  warehouseId: string;
  available: number;
}

export interface LineDemand {
  lineId: string;
  productId: string;
  quantity: number;
}

export interface Reservation {
  lineId: string;
  productId: string;
  locationId: string;
  warehouseId: string;
  quantity: number;
}

export interface ShortLine {
  index: number;
  productId: string;
  requested: number;
  /** What is still available for this line after the order's earlier lines of the same product. */
  available: number;
}

/**
 * Decides where each line's quantity is reserved: from the candidates in the order given (the caller
 * sorts them, most available first, so a line is split over as few locations as possible).
 * Lines of the same product draw from the same pool. All lines or none: any short line -> `short`.
 */
export function allocate(
  lines: readonly LineDemand[],
  candidates: readonly StockCandidate[],
): { reservations: Reservation[] } | { short: ShortLine[] } {
  const remaining = candidates.map((candidate) => ({ ...candidate }));
  const reservations: Reservation[] = [];
  const short: ShortLine[] = [];
  lines.forEach((line, index) => {
    const pool = remaining.filter((c) => c.productId === line.productId && c.available > 0);
    const available = pool.reduce((sum, c) => sum + c.available, 0);
    if (available < line.quantity) {
      short.push({ index, productId: line.productId, requested: line.quantity, available });
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
        quantity: take,
      });
    }
  });
  return short.length ? { short } : { reservations };
}

/** Sums reservations per (product, location): one guarded stock update each. */
export function byStockLevel<T extends { productId: string; locationId: string; quantity: number }>(
  reservations: readonly T[],
): T[] {
  const merged = new Map<string, T>();
  for (const r of reservations) {
    const key = `${r.productId}|${r.locationId}`;
    const existing = merged.get(key);
    if (existing) existing.quantity += r.quantity;
    else merged.set(key, { ...r });
  }
  return [...merged.values()];
}
