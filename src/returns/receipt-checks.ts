import { AppError, conflict } from "../http/errors";
import type { targetLocations } from "../stock";
import type { LoadedReturn } from "./records";
import type { ReceiptInUnits, ReturnReceiptBody } from "./schemas";
import type { returnedSerials, shippedUnitsOf } from "./shipped";

type ShippedUnits = Awaited<ReturnType<typeof shippedUnitsOf>>;

// What a return's receipt checks before its batch, beyond the kernel's tracked-line checks: the lines are the
// return's, within what was authorized, at a place fitting their disposition, of lots and serials that shipped.

type ReceiptInput = ReceiptInUnits["lines"][number];
type Location = Awaited<ReturnType<typeof targetLocations>>[number];

/** 404 for lines not on the return. */
export function assertLines(loaded: LoadedReturn, body: ReturnReceiptBody) {
  const { row, lines } = loaded;
  const missing = body.lines.flatMap((l, i) =>
    lines.some((line) => line.id === l.returnLineId)
      ? []
      : [`lines[${i}].returnLineId: line ${l.returnLineId} not found on return ${row.number}`],
  );
  if (missing.length) throw new AppError("NOT_FOUND", missing[0] as string, { errors: missing });
}

/** 409 for lines receiving more than their return line has left (lines of one return line add up). */
export function assertWithinAuthorized(loaded: LoadedReturn, body: ReceiptInUnits) {
  const receiving = new Map<string, number>();
  const over = body.lines.flatMap((l, i) => {
    const line = loaded.lines.find((r) => r.id === l.returnLineId);
    if (!line) return [];
    const before = receiving.get(line.id) ?? 0;
    receiving.set(line.id, before + l.quantity);
    const left = line.quantity - line.receivedQuantity - before;
    return l.quantity > left
      ? [
          `lines[${i}].quantity: return line ${line.lineNo} authorized ${line.quantity}, received ${line.receivedQuantity + before}, receiving ${l.quantity}`,
        ]
      : [];
  });
  if (over.length) throw conflict("Receiving more than was authorized", over);
}

/** Each disposition's place: restock at an active sellable location, quarantine at an active non-sellable one. */
function placeProblems(l: ReceiptInput, i: number, location: Location | undefined): string[] {
  if (l.locationId === undefined) return [];
  if (!location) return [];
  const field = `lines[${i}].locationId`;
  if (!location.active) return [`${field}: location ${location.code} is inactive and cannot receive stock`];
  if (l.disposition === "restock" && !location.sellable) {
    return [`${field}: location ${location.code} is not sellable; restock puts units at a sellable location`];
  }
  if (l.disposition === "quarantine" && location.sellable) {
    return [
      `${field}: location ${location.code} is sellable; quarantine puts units at a non-sellable location`,
    ];
  }
  return [];
}

/** 409s for lots and serials that did not ship on the order line, or serials already received back. */
export function unshippedProblems(
  orderLines: readonly { orderLineId: string }[],
  body: ReceiptInUnits,
  shipped: ShippedUnits,
  returned: Awaited<ReturnType<typeof returnedSerials>>,
) {
  return body.lines.flatMap((l, i) => {
    const orderLineId = orderLines[i]?.orderLineId as string;
    const lot =
      l.lotNumber !== undefined && !shipped.lots(orderLineId).has(l.lotNumber)
        ? [`lines[${i}].lotNumber: lot ${l.lotNumber} did not ship on order line ${orderLineId}`]
        : [];
    const serials = (l.serialNumbers ?? []).flatMap((serial) => {
      if (!shipped.serials(orderLineId).has(serial)) {
        return [`lines[${i}].serialNumbers: ${serial} did not ship on order line ${orderLineId}`];
      }
      const on = returned(orderLineId, serial);
      return on ? [`lines[${i}].serialNumbers: ${serial} was already received back on return ${on}`] : [];
    });
    return [...lot, ...serials];
  });
}

/** 404 for locations not found, 409 for a location that does not fit its line's disposition. */
export function assertPlaces(body: ReceiptInUnits, locationById: ReadonlyMap<string, Location>) {
  const unknown = body.lines.flatMap((l, i) =>
    l.locationId && !locationById.has(l.locationId)
      ? [`lines[${i}].locationId: location ${l.locationId} not found`]
      : [],
  );
  if (unknown.length) throw new AppError("NOT_FOUND", unknown[0] as string, { errors: unknown });
  const misplaced = body.lines.flatMap((l, i) => placeProblems(l, i, locationById.get(l.locationId ?? "")));
  if (misplaced.length) throw conflict(misplaced[0] as string, misplaced);
}
