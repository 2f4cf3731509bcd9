import type { TenantDb } from "../db/client";
import { conflict } from "../http/errors";
import { validationError } from "../http/validation";
import type { LoadedOrder } from "../order-core/read-order";
import { serialsWhere } from "../stock";
import { productsQuery } from "./order-inputs";
import type { UpdateStatusBody } from "./schemas";

/** The serial numbers shipped per stock level (`product|location|lot`) and per line. */
export interface PickedSerials {
  atLevel: Map<string, string[]>;
  byLine: Map<string, string[]>;
}

export const levelKey = (s: { productId: string; locationId: string; lotId?: string }) =>
  `${s.productId}|${s.locationId}|${s.lotId ?? ""}`;

/**
 * Serials are chosen at pick time: shipping an order names, for every line of a serial-tracked product,
 * one serial number per unit, each in stock at a location the line reserved from (as many there as it
 * reserved there). 400 for a malformed pick, 409 for serials that are not where the line's stock is.
 */
export async function pickedSerials(
  tdb: TenantDb,
  order: LoadedOrder,
  picks: UpdateStatusBody["lines"] = [],
): Promise<PickedSerials> {
  const products = new Map(
    (
      await productsQuery(
        tdb,
        order.lines.map((l) => l.productId),
      )
    ).map((p) => [p.id, p]),
  );
  const lineById = new Map(order.lines.map((l) => [l.id, l]));
  const problems: string[] = [];
  const pickOf = new Map<string, string[]>();
  for (const [i, pick] of picks.entries()) {
    const line = lineById.get(pick.lineId);
    const product = line && products.get(line.productId);
    if (!line || !product) {
      problems.push(`lines[${i}].lineId: line ${pick.lineId} is not on this order`);
      continue;
    }
    if (product.tracking !== "serial") {
      problems.push(`lines[${i}].serialNumbers: product ${product.sku} is not serial-tracked`);
      continue;
    }
    if (pick.serialNumbers.length !== line.quantity) {
      problems.push(
        `lines[${i}].serialNumbers: ${pick.serialNumbers.length} serial numbers for a quantity of ${line.quantity}`,
      );
    }
    pickOf.set(line.id, pick.serialNumbers);
  }
  for (const line of order.lines) {
    const product = products.get(line.productId);
    if (product?.tracking === "serial" && !pickOf.has(line.id)) {
      problems.push(`lines: line ${line.lineNo} (${product.sku}) needs the serial numbers shipped`);
    }
  }
  if (problems.length) throw validationError(problems);

  // Where each picked serial is, against where the line's stock is reserved.
  const atLevel = new Map<string, string[]>();
  const misplaced: string[] = [];
  for (const [lineId, serials] of pickOf) {
    const line = lineById.get(lineId);
    const where = await serialsWhere(tdb, line?.productId ?? "", serials);
    let remaining = [...serials];
    for (const r of order.reservations.filter((h) => h.lineId === lineId)) {
      const here = remaining.filter((s) => where.get(s) === r.locationId).slice(0, r.quantity);
      remaining = remaining.filter((s) => !here.includes(s));
      const key = levelKey(r);
      atLevel.set(key, [...(atLevel.get(key) ?? []), ...here]);
    }
    for (const serial of remaining) {
      misplaced.push(
        `serialNumbers: ${serial} (line ${line?.lineNo}) is not in stock where the line's stock is reserved`,
      );
    }
  }
  if (misplaced.length) throw conflict(misplaced[0] as string, misplaced);
  return { atLevel, byLine: pickOf };
}
