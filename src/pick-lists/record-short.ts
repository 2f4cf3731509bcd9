import { and, eq, ne, type SQL, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { shipments } from "../db/schema/tenant";
import { conflict } from "../http/errors";
import { historyInsert } from "../order-core/history";
import { readOrder } from "../order-core/read-order";
import { historyEntry, orderRecord } from "../order-core/records";
import { eventRow } from "../outbox/outbox";
import { readShipments, shipmentInOrderEvent } from "../shipment-core/records";
import { release } from "../stock";
import { refusal, remainingOf } from "./confirm-pick";
import {
  bumpOrderVersion,
  type LineRef,
  listProgress,
  pickGuard,
  shrinkBinReservation,
  updateLine,
} from "./progress";
import { pickListRecord, readPickList, selectPickList, selectPickListLines } from "./records";
import type { ShortBody } from "./schemas";

const ACTIVE = ["open", "in_progress"];

/**
 * Records a short pick: the shortfall's reservation is released at the bin, the order line's
 * `backorderedQuantity` grows by it (those units will not ship on this order), and `order.backordered`
 * carries the order and the backorder. One batch, guarded like a pick; the line's and the order line's
 * CHECKs refuse more than is open.
 */
export async function recordShort(tdb: TenantDb, actor: Actor, pickListId: string, input: ShortBody) {
  const { row, lines } = await readPickList(tdb, pickListId);
  if (!ACTIVE.includes(row.status)) {
    throw conflict(`Pick list ${pickListId} is ${row.status}; it takes no more shorts`);
  }
  const line = lines.find((l) => l.id === input.lineId);
  if (!line)
    throw conflict(`Line ${input.lineId} is not on this pick list`, [
      `lineId: ${input.lineId} is not on this pick list`,
    ]);
  if (line.status !== "open")
    throw conflict(`Line ${line.lineNo} is ${line.status}`, [
      `lineId: line ${line.lineNo} is ${line.status}`,
    ]);
  const remaining = remainingOf(line);
  if (input.quantity > remaining) {
    throw conflict(`Line ${line.lineNo} has ${remaining} left to pick`, [
      `quantity: line ${line.lineNo} has ${remaining} left to pick, shorting ${input.quantity}`,
    ]);
  }
  const order = await readOrder(tdb, line.orderId);
  const now = new Date().toISOString();
  const ref: LineRef = { ...line, pickListId };
  const guard = pickGuard(tdb, ref);
  const q = input.quantity;
  const auditId = uuidv7();
  const backorder = {
    pickListId,
    pickListLineId: line.id,
    orderLineId: line.orderLineId,
    quantity: q,
    reason: input.reason,
  };
  const orderLines = order.lines.map((l) =>
    l.id === line.orderLineId ? { ...l, backorderedQuantity: l.backorderedQuantity + q } : l,
  );
  const payload = {
    ...orderRecord(
      { ...order.row, version: order.row.version + 1, updatedAt: now },
      orderLines,
      order.history,
    ),
    backorder,
  };
  const shipping = await shipsTheOrder(tdb, actor, order, orderLines, auditId, now);
  const written = await runBatch(tdb, {
    order: bumpOrderVersion(tdb, ref, now, guard),
    release: release(
      tdb,
      { productId: line.productId, locationId: line.locationId, lotId: line.lotId || undefined, quantity: q },
      now,
      guard,
    ),
    reservation: shrinkBinReservation(tdb, ref, q, guard),
    backordered: sql`update order_lines set backordered_quantity = backordered_quantity + ${q}
      where tenant_id = ${tdb.tenantId} and id = ${line.orderLineId} and ${guard}`,
    audit: sql`insert into pick_list_picks (id, tenant_id, pick_list_id, line_id, kind, quantity, reason, actor_type, actor_id, created_at)
      select ${auditId}, ${tdb.tenantId}, ${pickListId}, ${line.id}, 'short', ${q}, ${input.reason}, ${actor.actorType},
        ${actor.actorId}, ${now}
      where ${guard}`,
    event: eventRow(tdb, "order.backordered", payload, now, { onlyIf: guard }),
    line: updateLine(tdb, ref, { picked: 0, short: q }, guard),
    progress: listProgress(tdb, pickListId, now),
    // After the line and the order line: the short is recorded, and then the order may be closed.
    shipped: shipping,
    list: selectPickList(tdb, pickListId),
    lines: selectPickListLines(tdb, pickListId),
  }).catch(async (error) => {
    const tooMany = async () => {
      const fresh = (await readPickList(tdb, pickListId)).lines.find((l) => l.id === line.id) ?? line;
      return conflict(`Line ${line.lineNo} has ${remainingOf(fresh)} left to pick`, [
        `quantity: line ${line.lineNo} has ${remainingOf(fresh)} left to pick, shorting ${q}`,
      ]);
    };
    throw await answerFor(error, {
      pick_list_lines_picked_check: tooMany,
      order_lines_shipped_check: tooMany,
    });
  });
  if (changesOf(written.line) === 0) throw await refusal(tdb, pickListId, line.id);
  const [after] = written.list;
  return pickListRecord(after ?? row, written.lines);
}

/**
 * A short of the last open units of a partly shipped order ships it, as a shipment closing it would: every
 * line is then shipped or backordered. Its history row, `order.status_changed` and `order.shipped` (with the
 * order's shipments) and the status are written only when the batch recorded the short and finds every line closed.
 */
async function shipsTheOrder(
  tdb: TenantDb,
  actor: Actor,
  order: Awaited<ReturnType<typeof readOrder>>,
  lines: Awaited<ReturnType<typeof readOrder>>["lines"],
  auditId: string,
  now: string,
) {
  const { row } = order;
  // Decided in the batch, not from this read: a shipment committed meanwhile may be what closes the order.
  // This short was recorded (its audit row is written), part of the order shipped, and nothing is left open.
  const closed = sql`exists (select 1 from pick_list_picks where tenant_id = ${tdb.tenantId} and id = ${auditId})
    and exists (select 1 from orders where tenant_id = ${tdb.tenantId} and id = ${row.id} and status = 'partially_shipped')
    and not exists (select 1 from order_lines where tenant_id = ${tdb.tenantId}
    and order_id = ${row.id} and quantity - shipped_quantity - backordered_quantity > 0)`;
  const sent = await readShipments(
    tdb,
    and(eq(shipments.orderId, row.id), ne(shipments.status, "cancelled")) as SQL,
  );
  const history = [...order.history, historyEntry(row, "partially_shipped", "shipped", actor, now)];
  const payload = {
    ...orderRecord({ ...row, status: "shipped", version: row.version + 1, updatedAt: now }, lines, history),
    shipments: sent.map(shipmentInOrderEvent),
  };
  return [
    historyInsert(tdb, row.id, "partially_shipped", "shipped", actor, now, closed),
    eventRow(tdb, "order.status_changed", payload, now, { onlyIf: closed }),
    eventRow(tdb, "order.shipped", payload, now, { onlyIf: closed }),
    sql`update orders set status = 'shipped' where tenant_id = ${tdb.tenantId} and id = ${row.id} and ${closed}`,
  ];
}
