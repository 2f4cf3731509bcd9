import { sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { conflict } from "../http/errors";
import { validationError } from "../http/validation";
import { inBaseUnits, moveReserved, serialsChanged, serialsWhere } from "../stock";

import {
  bumpOrderVersion,
  type LineRef,
  listProgress,
  pickGuard,
  shrinkBinReservation,
  updateLine,
} from "./progress";
import {
  type PickListLineRow,
  pickListFrom,
  pickListReads,
  pickListRecord,
  readPickList,
  selectPickList,
  selectPickListLines,
  warehouseOf,
} from "./records";
import { lineOfScan, scannedFrom, scanReads } from "./scan";
import type { PickBody } from "./schemas";

const ACTIVE = ["open", "in_progress"];

/**
 * How many units a pick confirms: `quantity`, `packs` of a packaging of the line's product, or, with neither,
 * one pack of the packaging whose barcode was scanned (400 when the code scanned was not a packaging's).
 */
async function pickedUnits(tdb: TenantDb, pick: PickBody, productId: string, packUnits: number | undefined) {
  if (pick.quantity === undefined && pick.packaging === undefined) {
    if (packUnits === undefined)
      throw validationError([
        "quantity: is required (or packaging and packs, or a packaging's barcode as product)",
      ]);
    return packUnits;
  }
  const [units] = await inBaseUnits(tdb, [{ ...pick, productId }]);
  return units?.quantity ?? 0;
}

export const remainingOf = (line: PickListLineRow) =>
  line.quantity - line.pickedQuantity - line.shortQuantity;

/** Why a pick or short whose batch changed nothing was refused, from a fresh read. */
export async function refusal(tdb: TenantDb, pickListId: string, lineId: string) {
  const { row, lines } = await readPickList(tdb, pickListId);
  const line = lines.find((l) => l.id === lineId);
  if (!ACTIVE.includes(row.status)) return conflict(`Pick list ${pickListId} is ${row.status}`);
  if (line && line.status !== "open") return conflict(`Line ${line.lineNo} is ${line.status}`);
  if (line && remainingOf(line) > 0) {
    return conflict(`The order of line ${line.lineNo} is no longer picking (cancelled?); reload it`);
  }
  return conflict("The pick list changed meanwhile; reload it and retry");
}

/**
 * Confirms a scanned pick: the units move from the bin to the warehouse's packing location WITH their
 * reservation (bin: on hand and reserved down; packing: both up; the order's reservation row follows), with
 * a ledger row of reason `pick` on each side. One batch guarded by "list active, line open, order picking";
 * the line's update is last and its CHECK (picked + short <= quantity) fails the whole batch of a picker
 * who would exceed the line, so concurrent pickers never over-pick.
 */
export async function confirmPick(tdb: TenantDb, actor: Actor, pickListId: string, body: PickBody) {
  // The list, its lines and the scan in one round trip: the scan's reads name the list's warehouse by a select.
  const read = await runBatch(tdb, {
    ...pickListReads(tdb, pickListId),
    ...scanReads(tdb, warehouseOf(tdb, pickListId), body),
  });
  const { row, lines } = pickListFrom(read);
  if (!ACTIVE.includes(row.status)) {
    throw conflict(`Pick list ${pickListId} is ${row.status}; it takes no more picks`);
  }
  const scanned = scannedFrom(read);
  const { line, product } = lineOfScan(lines, scanned, body);
  const input = { ...body, quantity: await pickedUnits(tdb, body, line.productId, product.packUnits) };
  const remaining = remainingOf(line);
  if (input.quantity > remaining) {
    throw conflict(`Line ${line.lineNo} asks for ${remaining} more`, [
      `quantity: line ${line.lineNo} asks for ${remaining} more, picking ${input.quantity}`,
    ]);
  }
  const serials = input.serialNumbers ?? null;
  const { tracking } = product;
  if (tracking === "serial" && serials?.length !== input.quantity) {
    throw validationError([
      `serialNumbers: ${line.sku} is serial-tracked: name one serial number per unit picked`,
    ]);
  }
  if (tracking !== "serial" && serials) {
    throw validationError([`serialNumbers: ${line.sku} is not serial-tracked`]);
  }
  if (serials) {
    const where = await serialsWhere(tdb, line.productId, serials);
    const elsewhere = serials.filter((s) => where.get(s) !== line.locationId);
    if (elsewhere.length) {
      throw conflict(
        `Serial numbers not at ${line.locationCode}`,
        elsewhere.map((s) => `serialNumbers: ${s} is not in stock at ${line.locationCode}`),
      );
    }
  }
  const packing = scanned.packing;
  if (!packing)
    throw conflict("The warehouse has no active packing location: create a location of type packing");

  const now = new Date().toISOString();
  const ref: LineRef = { ...line, pickListId };
  const guard = pickGuard(tdb, ref);
  const lot = line.lotId || undefined;
  const q = input.quantity;
  const bin = {
    productId: line.productId,
    locationId: line.locationId,
    lotId: lot,
    quantity: q,
    serialNumbers: serials,
  };
  const why = {
    reason: "pick" as const,
    referenceType: "pick_list",
    referenceId: pickListId,
    notes: input.toteCode ? `tote ${input.toteCode}` : null,
    ...actor,
    now,
  };
  const written = await runBatch(tdb, {
    order: bumpOrderVersion(tdb, ref, now, guard),
    ...moveReserved(
      tdb,
      bin,
      { locationId: packing.id, warehouseId: row.warehouseId },
      { orderId: line.orderId, lineId: line.orderLineId },
      why,
      guard,
    ),
    binReservation: shrinkBinReservation(tdb, ref, q, guard),
    audit: sql`insert into pick_list_picks (id, tenant_id, pick_list_id, line_id, kind, quantity, serial_numbers, tote_code,
        actor_type, actor_id, created_at)
      select ${uuidv7()}, ${tdb.tenantId}, ${pickListId}, ${line.id}, 'pick', ${q}, ${serials ? JSON.stringify(serials) : null},
        ${input.toteCode ?? null}, ${actor.actorType}, ${actor.actorId}, ${now}
      where ${guard}`,
    line: updateLine(tdb, ref, { picked: q, short: 0 }, guard),
    progress: listProgress(tdb, pickListId, now),
    list: selectPickList(tdb, pickListId),
    lines: selectPickListLines(tdb, pickListId),
  }).catch(async (error) => {
    const stockChanged = () =>
      conflict(`The stock at ${line.locationCode} changed meanwhile; reload the pick list`);
    throw await answerFor(error, {
      pick_list_lines_picked_check: async () => {
        const fresh = (await readPickList(tdb, pickListId)).lines.find((l) => l.id === line.id) ?? line;
        return conflict(`Line ${line.lineNo} asks for ${remainingOf(fresh)} more`, [
          `quantity: line ${line.lineNo} asks for ${remainingOf(fresh)} more, picking ${q}`,
        ]);
      },
      serial_numbers_on_hand_check: async () => serialsChanged(),
      stock_levels_reserved_check: async () => stockChanged(),
      stock_levels_on_hand_check: async () => stockChanged(),
    });
  });
  if (changesOf(written.line) === 0) throw await refusal(tdb, pickListId, line.id);
  const [after] = written.list;
  return pickListRecord(after ?? row, written.lines);
}
