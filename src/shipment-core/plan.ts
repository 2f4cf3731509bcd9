import { uuidv7 } from "uuidv7";
import type { orderReservations } from "../db/schema/tenant";
import { AppError, conflict } from "../http/errors";
import { validationError } from "../http/validation";
import type { LoadedOrder } from "../order-core/read-order";
import type { ShipmentInUnits } from "./schemas";

type ReservationRow = typeof orderReservations.$inferSelect;

/** What one shipment takes from one stock level for one order line (what a cancellation puts back). */
export interface StockTaken {
  orderLineId: string;
  productId: string;
  locationId: string;
  lotId: string;
  quantity: number;
  serials: string[];
}

export interface PlannedPackageLine {
  id: string;
  packageId: string;
  orderLineId: string;
  productId: string;
  lotId: string;
  quantity: number;
  serialNumbers: string[] | null;
}

export interface ShipmentPlan {
  packageLines: PlannedPackageLine[];
  stock: StockTaken[];
  /** Units shipped per order line. */
  shipped: Map<string, number>;
}

/** What the plan needs to know besides the order: which locations are packing ones, where serials are. */
export interface PlanContext {
  packingLocations: ReadonlySet<string>;
  serialLocation: (productId: string, serial: string) => string | null | undefined;
  tracking: (productId: string) => string | undefined;
  /** Whether the order has lines still to pick on an active pick list (its bin units are not shippable). */
  onActivePickList: boolean;
}

/**
 * Which reservations each package line consumes: a line's units come from the packing location first (picked
 * units), then from bins (an order never picked); a lot named takes only that lot; serials are taken where they
 * are. 404 for a line not on the order, 400 for serials that do not fit the product's tracking, 409 for more
 * than is open or what the stock does not allow.
 */
export function planShipment(
  order: LoadedOrder,
  packageIds: readonly string[],
  body: Pick<ShipmentInUnits, "packages">,
  ctx: PlanContext,
): ShipmentPlan {
  const lineById = new Map(order.lines.map((l) => [l.id, l]));
  const left = new Map<ReservationRow, number>(order.reservations.map((r) => [r, r.quantity]));
  const missing: string[] = [];
  const invalid: string[] = [];
  const refused: string[] = [];
  const shipped = new Map<string, number>();
  const packageLines: PlannedPackageLine[] = [];
  const stock = new Map<string, StockTaken>();

  for (const [i, pkg] of body.packages.entries()) {
    for (const [j, input] of pkg.lines.entries()) {
      const field = `packages[${i}].lines[${j}]`;
      const line = lineById.get(input.orderLineId);
      if (!line) {
        missing.push(
          `${field}.orderLineId: line ${input.orderLineId} not found on order ${order.row.number}`,
        );
        continue;
      }
      const serial = ctx.tracking(line.productId) === "serial";
      if (serial && input.serialNumbers?.length !== input.quantity) {
        invalid.push(
          `${field}.serialNumbers: line ${line.lineNo} is serial-tracked: name one serial number per unit`,
        );
        continue;
      }
      if (!serial && input.serialNumbers) {
        invalid.push(`${field}.serialNumbers: line ${line.lineNo} is not serial-tracked`);
        continue;
      }
      const open =
        line.quantity - line.shippedQuantity - line.backorderedQuantity - (shipped.get(line.id) ?? 0);
      if (input.quantity > open) {
        refused.push(`${field}.quantity: line ${line.lineNo} has ${open} open, shipping ${input.quantity}`);
        continue;
      }
      const lotId =
        input.lotNumber === undefined
          ? undefined
          : line.lots?.find((l) => l.lotNumber === input.lotNumber)?.lotId;
      if (input.lotNumber !== undefined && !lotId) {
        refused.push(`${field}.lotNumber: line ${line.lineNo} holds no units of lot ${input.lotNumber}`);
        continue;
      }
      const candidates = order.reservations
        .filter((r) => r.lineId === line.id && (lotId === undefined || r.lotId === lotId))
        .sort(
          (a, b) =>
            Number(ctx.packingLocations.has(b.locationId)) - Number(ctx.packingLocations.has(a.locationId)),
        );
      // Serials come from where each one is; other units from the candidates in order.
      const wanted = serial
        ? (input.serialNumbers ?? []).map((s) => ({ serial: s, at: ctx.serialLocation(line.productId, s) }))
        : [];
      let need = input.quantity;
      const taken: { r: ReservationRow; quantity: number; serials: string[] }[] = [];
      for (const r of candidates) {
        if (need === 0) break;
        const here = left.get(r) ?? 0;
        if (here === 0) continue;
        const serials = serial
          ? wanted
              .filter((w) => w.at === r.locationId)
              .map((w) => w.serial)
              .slice(0, here)
          : [];
        const quantity = serial ? serials.length : Math.min(here, need);
        if (quantity === 0) continue;
        if (!ctx.packingLocations.has(r.locationId) && ctx.onActivePickList) {
          refused.push(
            `${field}.quantity: line ${line.lineNo} has units still to pick: pick them or cancel the pick list first`,
          );
          need = -1;
          break;
        }
        left.set(r, here - quantity);
        for (const s of serials)
          wanted.splice(
            wanted.findIndex((w) => w.serial === s),
            1,
          );
        taken.push({ r, quantity, serials });
        need -= quantity;
      }
      if (need < 0) continue;
      if (need > 0) {
        refused.push(
          serial
            ? `${field}.serialNumbers: ${wanted.map((w) => w.serial).join(", ")} not in stock where line ${line.lineNo} is held`
            : `${field}.quantity: line ${line.lineNo} holds ${input.quantity - need} units${input.lotNumber ? ` of lot ${input.lotNumber}` : ""}, shipping ${input.quantity}`,
        );
        continue;
      }
      shipped.set(line.id, (shipped.get(line.id) ?? 0) + input.quantity);
      const byLot = new Map<string, { quantity: number; serials: string[] }>();
      for (const t of taken) {
        const key = `${t.r.lineId}|${t.r.locationId}|${t.r.lotId}`;
        const s = stock.get(key) ?? {
          orderLineId: line.id,
          productId: line.productId,
          locationId: t.r.locationId,
          lotId: t.r.lotId,
          quantity: 0,
          serials: [],
        };
        s.quantity += t.quantity;
        s.serials.push(...t.serials);
        stock.set(key, s);
        const lot = byLot.get(t.r.lotId) ?? { quantity: 0, serials: [] };
        lot.quantity += t.quantity;
        lot.serials.push(...t.serials);
        byLot.set(t.r.lotId, lot);
      }
      for (const [lot, units] of byLot) {
        packageLines.push({
          id: uuidv7(),
          packageId: packageIds[i] as string,
          orderLineId: line.id,
          productId: line.productId,
          lotId: lot,
          quantity: units.quantity,
          serialNumbers: serial ? units.serials : null,
        });
      }
    }
  }
  if (missing.length) throw new AppError("NOT_FOUND", "Order line not found", { errors: missing });
  if (invalid.length) throw validationError(invalid);
  if (refused.length) throw conflict(refused[0] as string, refused);
  return { packageLines, stock: [...stock.values()], shipped };
}

/** Everything an order still holds, as one package's contents (the legacy status update's shipment). */
export function planRemainder(
  order: LoadedOrder,
  packageId: string,
  serialsByLine: ReadonlyMap<string, string[]>,
  serialsAt: (lineId: string, locationId: string, quantity: number) => string[],
): ShipmentPlan {
  const stock = order.reservations.map((r) => ({
    orderLineId: r.lineId,
    productId: r.productId,
    locationId: r.locationId,
    lotId: r.lotId,
    quantity: r.quantity,
    serials: serialsByLine.has(r.lineId) ? serialsAt(r.lineId, r.locationId, r.quantity) : [],
  }));
  const shipped = new Map<string, number>();
  const byLineLot = new Map<string, PlannedPackageLine>();
  for (const s of stock) {
    shipped.set(s.orderLineId, (shipped.get(s.orderLineId) ?? 0) + s.quantity);
    const key = `${s.orderLineId}|${s.lotId}`;
    const line = byLineLot.get(key) ?? {
      id: uuidv7(),
      packageId,
      orderLineId: s.orderLineId,
      productId: s.productId,
      lotId: s.lotId,
      quantity: 0,
      serialNumbers: serialsByLine.has(s.orderLineId) ? [] : null,
    };
    line.quantity += s.quantity;
    line.serialNumbers?.push(...s.serials);
    byLineLot.set(key, line);
  }
  return { packageLines: [...byLineLot.values()], stock, shipped };
}
