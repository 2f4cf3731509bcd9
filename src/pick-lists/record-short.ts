import { sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { conflict } from "../http/errors";
import { readOrder } from "../order-core/read-order";
import { orderRecord } from "../order-core/records";
import { eventRow } from "../outbox/outbox";
import { changeLevel } from "../stock/statements";
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
  const backorder = {
    pickListId,
    pickListLineId: line.id,
    orderLineId: line.orderLineId,
    quantity: q,
    reason: input.reason,
  };
  const payload = {
    ...orderRecord(
      { ...order.row, version: order.row.version + 1, updatedAt: now },
      order.lines.map((l) =>
        l.id === line.orderLineId ? { ...l, backorderedQuantity: l.backorderedQuantity + q } : l,
      ),
      order.history,
    ),
    backorder,
  };
  const written = await runBatch(tdb, {
    order: bumpOrderVersion(tdb, ref, now, guard),
    release: changeLevel(
      tdb,
      { productId: line.productId, locationId: line.locationId, lotId: line.lotId || undefined },
      { reserved: -q },
      now,
      guard,
    ),
    reservation: shrinkBinReservation(tdb, ref, q, guard),
    backordered: sql`update order_lines set backordered_quantity = backordered_quantity + ${q}
      where tenant_id = ${tdb.tenantId} and id = ${line.orderLineId} and ${guard}`,
    audit: sql`insert into pick_list_picks (id, tenant_id, pick_list_id, line_id, kind, quantity, reason, actor_type, actor_id, created_at)
      select ${uuidv7()}, ${tdb.tenantId}, ${pickListId}, ${line.id}, 'short', ${q}, ${input.reason}, ${actor.actorType},
        ${actor.actorId}, ${now}
      where ${guard}`,
    event: eventRow(tdb, "order.backordered", payload, now, { onlyIf: guard }),
    line: updateLine(tdb, ref, { picked: 0, short: q }, guard),
    progress: listProgress(tdb, pickListId, now),
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
