import { asc, eq, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { locations, lots, pickListLines, pickLists, products } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { notFound } from "../http/errors";
import type { PickListLineRecord, PickListRecord } from "./schemas";

export type PickListRow = typeof pickLists.$inferSelect;

/** A pick list's lines as the API shows them (sku, location code, lot number joined in), in walking order. */
export const selectPickListLines = (tdb: TenantDb, pickListId: string) =>
  tdb.db
    .select({
      id: pickListLines.id,
      lineNo: pickListLines.lineNo,
      orderId: pickListLines.orderId,
      orderLineId: pickListLines.orderLineId,
      productId: pickListLines.productId,
      sku: products.sku,
      locationId: pickListLines.locationId,
      // Aliased: the lot's and the location's columns share names.
      locationCode: sql<string>`${locations.code}`.as("location_code"),
      lotId: pickListLines.lotId,
      lotNumber: sql<string | null>`${lots.number}`.as("lot_number"),
      quantity: pickListLines.quantity,
      pickedQuantity: pickListLines.pickedQuantity,
      shortQuantity: pickListLines.shortQuantity,
      status: pickListLines.status,
    })
    .from(pickListLines)
    .innerJoin(products, eq(products.id, pickListLines.productId))
    .innerJoin(locations, eq(locations.id, pickListLines.locationId))
    .leftJoin(lots, eq(lots.id, pickListLines.lotId))
    .where(inTenant(tdb, pickListLines, eq(pickListLines.pickListId, pickListId)))
    .orderBy(asc(pickListLines.lineNo));

export type PickListLineRow = Awaited<ReturnType<typeof selectPickListLines>>[number];

export const lineRecord = ({ lotId: _lot, ...line }: PickListLineRow): PickListLineRecord => line;

export function pickListRecord(
  { tenantId: _t, createdBy: _by, ...row }: PickListRow,
  lines: readonly PickListLineRow[],
): PickListRecord {
  return { ...row, lines: lines.map(lineRecord) };
}

export const selectPickList = (tdb: TenantDb, id: string) =>
  tdb.db
    .select()
    .from(pickLists)
    .where(inTenant(tdb, pickLists, eq(pickLists.id, id)));

/** A pick list with its lines, in one round trip; 404 outside the tenant. */
export async function readPickList(tdb: TenantDb, id: string) {
  const read = await runBatch(tdb, { list: selectPickList(tdb, id), lines: selectPickListLines(tdb, id) });
  const [row] = read.list;
  if (!row) throw notFound("Pick list");
  return { row, lines: read.lines };
}
