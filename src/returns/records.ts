import { asc, eq, type SQL, sql } from "drizzle-orm";
import { inJsonArray, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { lots, returnLines, returnReceiptLines, returns } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { notFound } from "../http/errors";
import type { ReturnRecord } from "../record-schemas/return";

export type ReturnRow = typeof returns.$inferSelect;
export type ReturnLineRow = typeof returnLines.$inferSelect;

/** A receipt line as a return record shows it, with its receipt's id, time and actor. */
export interface ReceiptLineView {
  receiptId: string;
  returnId: string;
  returnLineId: string;
  productId: string;
  quantity: number;
  disposition: (typeof returnReceiptLines.$inferSelect)["disposition"];
  locationId: string;
  warehouseId: string;
  lotNumber: string | null;
  serialNumbers: string[] | null;
  actorType: string;
  actorId: string | null;
  createdAt: string;
}

/** The reads of the lines and receipt lines of the returns `ids` (for one batch). */
function linesOf(tdb: TenantDb, ids: readonly string[]) {
  return {
    lines: tdb.db
      .select()
      .from(returnLines)
      .where(inTenant(tdb, returnLines, inJsonArray(returnLines.returnId, [...ids])))
      .orderBy(asc(returnLines.lineNo)),
    receipts: tdb.db
      .select({
        receiptId: returnReceiptLines.receiptId,
        returnId: returnReceiptLines.returnId,
        returnLineId: returnReceiptLines.returnLineId,
        productId: returnReceiptLines.productId,
        quantity: returnReceiptLines.quantity,
        disposition: returnReceiptLines.disposition,
        locationId: returnReceiptLines.locationId,
        warehouseId: returnReceiptLines.warehouseId,
        lotNumber: sql<string | null>`${lots.number}`.as("lot_number"),
        serialNumbers: returnReceiptLines.serialNumbers,
        actorType: returnReceiptLines.actorType,
        actorId: returnReceiptLines.actorId,
        createdAt: returnReceiptLines.createdAt,
      })
      .from(returnReceiptLines)
      .leftJoin(lots, inTenant(tdb, lots, eq(lots.id, returnReceiptLines.lotId)))
      .where(inTenant(tdb, returnReceiptLines, inJsonArray(returnReceiptLines.returnId, [...ids])))
      .orderBy(asc(returnReceiptLines.createdAt), asc(returnReceiptLines.id)),
  };
}

/** Receipt lines grouped by receipt, oldest first. */
function receiptsOf(lines: readonly ReceiptLineView[]): ReturnRecord["receipts"] {
  const byReceipt = new Map<string, ReturnRecord["receipts"][number]>();
  for (const l of lines) {
    const receipt = byReceipt.get(l.receiptId) ?? {
      id: l.receiptId,
      createdAt: l.createdAt,
      actorType: l.actorType,
      actorId: l.actorId,
      lines: [],
    };
    receipt.lines.push({
      returnLineId: l.returnLineId,
      productId: l.productId,
      quantity: l.quantity,
      disposition: l.disposition,
      locationId: l.locationId,
      warehouseId: l.warehouseId,
      lotNumber: l.lotNumber,
      serialNumbers: l.serialNumbers,
    });
    byReceipt.set(l.receiptId, receipt);
  }
  return [...byReceipt.values()];
}

/** A return as the API shows it. */
export function returnRecord(
  { tenantId: _t, version: _v, createdBy: _by, ...row }: ReturnRow,
  lines: readonly ReturnLineRow[],
  receipts: readonly ReceiptLineView[],
): ReturnRecord {
  return {
    ...row,
    lines: lines.map((l) => ({
      id: l.id,
      lineNo: l.lineNo,
      orderLineId: l.orderLineId,
      productId: l.productId,
      quantity: l.quantity,
      receivedQuantity: l.receivedQuantity,
      reason: l.reason,
    })),
    receipts: receiptsOf(receipts),
  };
}

/** Return rows (in the order given) with their lines and receipts. */
export async function readReturns(tdb: TenantDb, rows: readonly ReturnRow[]) {
  if (rows.length === 0) return [];
  const read = await runBatch(
    tdb,
    linesOf(
      tdb,
      rows.map((r) => r.id),
    ),
  );
  return rows.map((row) =>
    returnRecord(
      row,
      read.lines.filter((l) => l.returnId === row.id),
      read.receipts.filter((l) => l.returnId === row.id),
    ),
  );
}

/** One return's row, lines and receipt lines, in one round trip; 404 outside the tenant. */
export async function loadReturn(tdb: TenantDb, id: string) {
  const read = await runBatch(tdb, {
    row: tdb.db
      .select()
      .from(returns)
      .where(inTenant(tdb, returns, eq(returns.id, id))),
    ...linesOf(tdb, [id]),
  });
  const [row] = read.row;
  if (!row) throw notFound("Return");
  return { row, lines: read.lines, receipts: read.receipts as ReceiptLineView[] };
}

export type LoadedReturn = Awaited<ReturnType<typeof loadReturn>>;

/** `GET /returns/{id}`. */
export async function getReturn(tdb: TenantDb, id: string) {
  const { row, lines, receipts } = await loadReturn(tdb, id);
  return returnRecord(row, lines, receipts);
}

/** Still at the version a request read: every statement of a return's change is guarded by it. */
export const returnAtVersion = (tdb: TenantDb, id: string, version: number): SQL =>
  sql`exists (select 1 from ${returns} where ${inTenant(tdb, returns, eq(returns.id, id), eq(returns.version, version))})`;
