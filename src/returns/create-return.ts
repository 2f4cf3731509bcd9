import { eq, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { insertSelect } from "../db/insert-select";
import { returnCounters, returnLines, returns } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError, conflict } from "../http/errors";
import { readOrder } from "../order-core/read-order";
import { eventRow, storedPayload } from "../outbox/outbox";
import { type ReturnLineRow, type ReturnRow, returnRecord } from "./records";
import type { CreateReturnBody } from "./schemas";
import { claimedUnits, shippedAndClaimed, shippedUnits } from "./shipped";

/** The number the creating batch gave the return. */
const numberOf = (tdb: TenantDb, id: string) =>
  tdb.db
    .select({ number: returns.number })
    .from(returns)
    .where(inTenant(tdb, returns, eq(returns.id, id)));

/**
 * `lines[i].quantity: ...` for every line that takes its order line past what shipped minus what other returns
 * claim (lines of one order line add up, in the order given).
 */
async function overClaims(tdb: TenantDb, orderId: string, lines: readonly ReturnLineRow[]) {
  const figures = await shippedAndClaimed(tdb, orderId);
  const returning = new Map<string, number>();
  return lines.flatMap((l, i) => {
    const { shipped = 0, claimed = 0 } = figures.get(l.orderLineId) ?? {};
    const total = (returning.get(l.orderLineId) ?? 0) + l.quantity;
    returning.set(l.orderLineId, total);
    return total > shipped - claimed
      ? [
          `lines[${i}].quantity: order line ${l.orderLineId} shipped ${shipped}, earlier returns claim ${claimed}, returning ${total}`,
        ]
      : [];
  });
}

const tooMany = (problems: string[]) =>
  conflict("Returning more than shipped minus what earlier returns claim", problems);

/**
 * Creates a return authorization (`requested`) of a sales order's shipped units, numbered RMA-000001 per
 * tenant. One batch whose every statement is guarded by "each line returns at most what shipped on its order
 * line minus what other returns claim", evaluated inside the batch: of concurrent returns of one order line
 * only those that fit commit, the others change nothing (409 with the numbers) and take no number.
 */
export async function createReturn(tdb: TenantDb, actor: Actor, body: CreateReturnBody) {
  const order = await readOrder(tdb, body.orderId);
  const { row: orderRow } = order;
  if (orderRow.type !== "sales") {
    throw conflict(`Order ${orderRow.number} is a purchase order; only sales orders are returned`);
  }
  const missing = body.lines.flatMap((l, i) =>
    order.lines.some((line) => line.id === l.orderLineId)
      ? []
      : [`lines[${i}].orderLineId: line ${l.orderLineId} not found on order ${orderRow.number}`],
  );
  if (missing.length) throw new AppError("NOT_FOUND", missing[0] as string, { errors: missing });

  const now = new Date().toISOString();
  const row: Omit<ReturnRow, "number"> = {
    id: uuidv7(),
    tenantId: tdb.tenantId,
    orderId: orderRow.id,
    status: "requested",
    notes: body.notes ?? null,
    version: 1,
    createdBy: actor.actorId,
    authorizedAt: null,
    receivedAt: null,
    closedAt: null,
    rejectedAt: null,
    cancelledAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const lines: ReturnLineRow[] = body.lines.map((l, i) => ({
    id: uuidv7(),
    tenantId: tdb.tenantId,
    returnId: row.id,
    lineNo: i + 1,
    orderId: orderRow.id,
    orderLineId: l.orderLineId,
    productId: order.lines.find((line) => line.id === l.orderLineId)?.productId ?? "",
    quantity: l.quantity,
    receivedQuantity: 0,
    reason: l.reason,
  }));
  const over = await overClaims(tdb, orderRow.id, lines);
  if (over.length) throw tooMany(over);

  const linesJson = JSON.stringify(lines);
  const line = sql`j.line`;
  const fits = sql`not exists (select 1 from (select value ->> 'orderLineId' as line, sum(value ->> 'quantity') as quantity
      from json_each(${linesJson}) group by 1) j
    where j.quantity > ${shippedUnits(tdb, line)} - ${claimedUnits(tdb, line)})`;
  const created = sql`exists (select 1 from ${returns} where ${inTenant(tdb, returns, eq(returns.id, row.id))})`;
  const record = returnRecord({ ...row, number: "" }, lines, []);

  const written = await runBatch(tdb, {
    // Bumped only when the return fits, so numbers stay gapless.
    counter: sql`insert into ${returnCounters} (tenant_id, value) select ${tdb.tenantId}, 1 where ${fits}
      on conflict (tenant_id) do update set value = value + 1`,
    return: insertSelect(
      returns,
      {
        ...row,
        number: sql`(select 'RMA-' || printf('%06d', value) from ${returnCounters} where tenant_id = ${tdb.tenantId})`,
      },
      sql`where ${fits}`,
    ),
    lines: insertSelect(
      returnLines,
      {
        id: sql`j.value ->> 'id'`,
        tenantId: tdb.tenantId,
        returnId: row.id,
        lineNo: sql`j.value ->> 'lineNo'`,
        orderId: orderRow.id,
        orderLineId: sql`j.value ->> 'orderLineId'`,
        productId: sql`j.value ->> 'productId'`,
        quantity: sql`j.value ->> 'quantity'`,
        receivedQuantity: 0,
        reason: sql`j.value ->> 'reason'`,
      },
      sql`from json_each(${linesJson}) j where ${created}`,
    ),
    event: eventRow(
      tdb,
      "return.created",
      sql`json_set(${storedPayload("return.created", record)}, '$.number', (${numberOf(tdb, row.id)}))`,
      now,
      { onlyIf: created },
    ),
    number: numberOf(tdb, row.id),
  });
  const [numbered] = written.number;
  if (!numbered) {
    // Another return claimed the units between the check and the batch: say what is left now.
    const left = await overClaims(tdb, orderRow.id, lines);
    throw tooMany(
      left.length ? left : ["Another return claimed these units meanwhile; reload the order and retry"],
    );
  }
  return { ...record, number: numbered.number };
}
