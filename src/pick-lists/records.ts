import { asc, eq, type SQLWrapper, sql } from "drizzle-orm";
import { type BatchResults, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { type KitLine, locations, lots, pickListLines, pickLists, products } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { notFound } from "../http/errors";
import type { PickListLineRecord, PickListRecord } from "../record-schemas/pick-list";

export type PickListRow = typeof pickLists.$inferSelect;

/**
 * The kit line a pick line's order line ships for, as a JSON object (`KitRef`), or null: the one statement of it,
 * for the line lists and for the events' copies of them.
 */
export const kitOfPickLine = (tenantId: SQLWrapper, orderId: SQLWrapper, orderLineId: SQLWrapper) =>
  sql`(select json_object('lineId', json_extract(kit_line.value, '$.id'),
      'lineNo', json_extract(kit_line.value, '$.lineNo'), 'productId', json_extract(kit_line.value, '$.productId'))
    from orders o join order_lines ol on ol.tenant_id = o.tenant_id and ol.order_id = o.id,
      json_each(o.kit_lines) as kit_line
    where o.tenant_id = ${tenantId} and o.id = ${orderId} and ol.id = ${orderLineId}
      and json_extract(kit_line.value, '$.id') = ol.kit_line_id)`;

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
      // A kit's component line: the kit line it ships for (orders.kit_lines), else null.
      kit: sql<KitRef | null>`${kitOfPickLine(pickListLines.tenantId, pickListLines.orderId, pickListLines.orderLineId)}`
        .mapWith((value: string): KitRef | null => JSON.parse(value))
        .as("kit"),
    })
    .from(pickListLines)
    .innerJoin(products, eq(products.id, pickListLines.productId))
    .innerJoin(locations, eq(locations.id, pickListLines.locationId))
    .leftJoin(lots, eq(lots.id, pickListLines.lotId))
    .where(inTenant(tdb, pickListLines, eq(pickListLines.pickListId, pickListId)))
    .orderBy(asc(pickListLines.lineNo));

/** The kit line a component's pick line ships for. */
export interface KitRef {
  lineId: string;
  lineNo: number;
  productId: string;
}

/** The kit line of an order line, if it is a kit's component (`kitLines` as the order stores them). */
export function kitOf(kitLines: readonly KitLine[] | null, kitLineId: string | null): KitRef | null {
  const kit = kitLines?.find((k) => k.id === kitLineId);
  return kit ? { lineId: kit.id, lineNo: kit.lineNo, productId: kit.productId } : null;
}

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

/** The reads of a pick list and its lines, for one batch (with others a write needs: `pickListFrom`). */
export const pickListReads = (tdb: TenantDb, id: string) => ({
  list: selectPickList(tdb, id),
  lines: selectPickListLines(tdb, id),
});

/** What `pickListReads` read; 404 outside the tenant. */
export function pickListFrom(read: BatchResults<ReturnType<typeof pickListReads>>) {
  const [row] = read.list;
  if (!row) throw notFound("Pick list");
  return { row, lines: read.lines };
}

/** A pick list with its lines, in one round trip; 404 outside the tenant. */
export async function readPickList(tdb: TenantDb, id: string) {
  return pickListFrom(await runBatch(tdb, pickListReads(tdb, id)));
}

/** The pick list's warehouse, as a select another statement of the same batch can name. */
export const warehouseOf = (tdb: TenantDb, id: string) =>
  sql`(select ${pickLists.warehouseId} from ${pickLists} where ${inTenant(tdb, pickLists, eq(pickLists.id, id))})`;
