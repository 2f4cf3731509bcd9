import { sql } from "drizzle-orm";
import type { Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { AppError, conflict } from "../http/errors";
import { nullsLast, type Reservation } from "./allocation";
import { releaseHold } from "./hold-release";
import type { HoldRecord } from "./schemas";

interface HeldLine {
  productId: string;
  quantity: number;
  holdId?: string | undefined;
  lotNumber?: string | undefined;
}

/** Why a line cannot take its reservation from this hold, if it cannot. */
function problemOf(
  hold: HoldRecord,
  line: HeldLine,
  warehouseId: string | undefined,
  skuOf: ReadonlyMap<string, string>,
): string | undefined {
  if (hold.status !== "active") return `is ${hold.status}`;
  if (hold.productId !== line.productId) {
    return `is not a hold of product ${skuOf.get(line.productId) ?? line.productId} (it holds another product)`;
  }
  if (line.quantity > hold.quantity) return `holds ${hold.quantity}, the line asks ${line.quantity}`;
  if (warehouseId && hold.allocations.some((a) => a.warehouseId !== warehouseId)) {
    return `holds stock outside warehouse ${warehouseId}`;
  }
  if (line.lotNumber !== undefined && hold.allocations.some((a) => a.lotNumber !== line.lotNumber)) {
    return `holds stock outside lot ${line.lotNumber}`;
  }
  return undefined;
}

type Allocation = HoldRecord["allocations"][number];

/** A line taking less than its hold keeps the hold's first-expiring lots (FEFO), then its largest allocations. */
const firstExpiringThenLargest = (x: Allocation, y: Allocation) =>
  nullsLast(x.expiresAt, y.expiresAt) || y.quantity - x.quantity;

/**
 * The reservations of the lines that name a hold: each takes its quantity from its hold's allocations
 * (first-expiring lot first, then largest), so the line keeps the hold's lots (products named by `skuOf`). The hold must exist (404), be active, hold the line's product, at least its quantity,
 * and within the order's warehouse if it names one (409, each problem named).
 */
export function heldReservations(
  order: { warehouseId?: string | undefined; lines: readonly HeldLine[] },
  lines: readonly { id: string }[],
  found: readonly HoldRecord[],
  skuOf: ReadonlyMap<string, string>,
): { holds: HoldRecord[]; reservations: Reservation[] } {
  const byId = new Map(found.map((hold) => [hold.id, hold]));
  const missing: string[] = [];
  const refused: string[] = [];
  const holds: HoldRecord[] = [];
  const reservations: Reservation[] = [];
  order.lines.forEach((line, i) => {
    if (!line.holdId) return;
    const at = `lines[${i}].holdId`;
    const hold = byId.get(line.holdId);
    if (!hold) {
      missing.push(`${at}: hold ${line.holdId} not found`);
      return;
    }
    const problem = problemOf(hold, line, order.warehouseId, skuOf);
    if (problem) {
      refused.push(`${at}: hold ${hold.id} ${problem}`);
      return;
    }
    holds.push(hold);
    let needed = line.quantity;
    for (const a of [...hold.allocations].sort(firstExpiringThenLargest)) {
      if (needed === 0) break;
      const take = Math.min(needed, a.quantity);
      needed -= take;
      reservations.push({
        lineId: lines[i]?.id ?? "",
        productId: hold.productId,
        locationId: a.locationId,
        warehouseId: a.warehouseId,
        lotId: a.lotId ?? "",
        lotNumber: a.lotNumber,
        expiresAt: a.expiresAt,
        quantity: take,
      });
    }
  });
  if (missing.length) throw new AppError("NOT_FOUND", missing[0] ?? "Hold not found", { errors: missing });
  if (refused.length) throw conflict("A hold cannot be used for this order", refused);
  return { holds, reservations };
}

/**
 * Ends each hold as `consumed` by the order, giving its whole quantity back so the order's reservation
 * (statements after these) takes what its line needs. First, an assertion: a hold that is no longer
 * active and unexpired would get a status its CHECK refuses, which fails the whole batch (D1 has no
 * other way to abort a batch from inside).
 */
export function consumeHolds(
  tdb: TenantDb,
  holds: readonly HoldRecord[],
  orderId: string,
  now: string,
): Statement[] {
  return holds.flatMap((hold) => [
    sql`update stock_holds set status = 'no longer active' where tenant_id = ${tdb.tenantId} and id = ${hold.id}
      and not (status = 'active' and expires_at > ${now})`,
    ...releaseHold(tdb, hold, "consumed", now, orderId),
  ]);
}
