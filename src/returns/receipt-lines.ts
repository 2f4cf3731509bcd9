import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "../auth/principal";
import type { TenantDb } from "../db/client";
import { insertSelect } from "../db/insert-select";
import { returnReceiptLines } from "../db/schema/tenant";
import { inBaseUnits, packingLocations } from "../stock";

import type { LoadedReturn, ReceiptLineView } from "./records";
import type { ReceiptInUnits, ReturnReceiptBody } from "./schemas";
import type { shippedUnitsOf } from "./shipped";

/**
 * A receipt's lines, from their JSON (each with its id and lot id), inserted only while `guard` holds (raw: an
 * insert from json_each, one statement whatever the number of lines).
 */
export const receiptLinesInsert = (
  tdb: TenantDb,
  linesJson: string,
  receipt: { receiptId: string; returnId: string; actor: Actor; now: string },
  guard: SQL,
) =>
  insertSelect(
    returnReceiptLines,
    {
      id: sql`j.value ->> 'id'`,
      tenantId: tdb.tenantId,
      receiptId: receipt.receiptId,
      returnId: receipt.returnId,
      returnLineId: sql`j.value ->> 'returnLineId'`,
      productId: sql`j.value ->> 'productId'`,
      quantity: sql`j.value ->> 'quantity'`,
      disposition: sql`j.value ->> 'disposition'`,
      locationId: sql`j.value ->> 'locationId'`,
      warehouseId: sql`j.value ->> 'warehouseId'`,
      lotId: sql`j.value ->> 'lotId'`,
      serialNumbers: sql`j.value -> 'serialNumbers'`,
      actorType: receipt.actor.actorType,
      actorId: receipt.actor.actorId,
      createdAt: receipt.now,
    },
    sql`from json_each(${linesJson}) j where ${guard}`,
  );

type ReturnLine = LoadedReturn["lines"][number];

/**
 * A receipt's lines as the return shows them, each at its location; a scrapped line without one is booked at the
 * packing location of the warehouse its units shipped from.
 */
export async function receiptLineViews(
  tdb: TenantDb,
  returnLines: readonly ReturnLine[],
  body: ReceiptInUnits,
  context: {
    locationById: ReadonlyMap<string, { warehouseId: string }>;
    shipped: Awaited<ReturnType<typeof shippedUnitsOf>>;
    head: { receiptId: string; returnId: string; actor: Actor; now: string };
  },
): Promise<ReceiptLineView[]> {
  const { locationById, shipped, head } = context;
  const shippedFrom = (i: number) => shipped.warehouse((returnLines[i] as ReturnLine).orderLineId);
  const scrapWarehouses = [
    ...new Set(body.lines.flatMap((l, i) => (l.locationId === undefined ? [shippedFrom(i) ?? ""] : []))),
  ];
  const packing = scrapWarehouses.length
    ? await packingLocations(tdb, scrapWarehouses)
    : new Map<string, string>();
  return body.lines.map((l, i) => {
    const line = returnLines[i] as ReturnLine;
    const location = l.locationId ? locationById.get(l.locationId) : undefined;
    const warehouseId = location?.warehouseId ?? shippedFrom(i) ?? "";
    return {
      receiptId: head.receiptId,
      returnId: head.returnId,
      returnLineId: line.id,
      productId: line.productId,
      quantity: l.quantity,
      disposition: l.disposition,
      locationId: l.locationId ?? packing.get(warehouseId) ?? "",
      warehouseId,
      lotNumber: l.lotNumber ?? null,
      serialNumbers: l.serialNumbers ?? null,
      actorType: head.actor.actorType,
      actorId: head.actor.actorId,
      createdAt: head.now,
    };
  });
}

/** The receipt with each line's packs in units, against its return line's product. */
export async function receiptInUnits(
  tdb: TenantDb,
  loaded: LoadedReturn,
  request: ReturnReceiptBody,
): Promise<ReceiptInUnits> {
  const units = await inBaseUnits(
    tdb,
    request.lines.map(({ packaging, packs, quantity, returnLineId }) => ({
      productId: loaded.lines.find((r) => r.id === returnLineId)?.productId as string,
      packaging,
      packs,
      quantity,
    })),
    (i) => `lines[${i}].`,
  );
  return { lines: request.lines.map((l, i) => ({ ...l, quantity: units[i]?.quantity ?? 0 })) };
}
