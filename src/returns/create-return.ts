import { eq, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { insertSelect } from "../db/insert-select";
import { returnCounters, returnLines, returns } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError, conflict } from "../http/errors";
import { validationError } from "../http/validation";
import { type LoadedOrder, readOrder } from "../order-core/read-order";
import { eventRow, storedPayload } from "../outbox/outbox";
import { inBaseUnits } from "../stock";
import { type ReturnLineRow, type ReturnRow, returnRecord } from "./records";
import { type CreateReturnBody, MAX_RETURN_LINES } from "./schemas";
import { claimedUnits, shippedAndClaimed, shippedUnits } from "./shipped";

/** The number the creating batch gave the return. */
const numberOf = (tdb: TenantDb, id: string) =>
  tdb.db
    .select({ number: returns.number })
    .from(returns)
    .where(inTenant(tdb, returns, eq(returns.id, id)));

/** A return line to write, with the request line it comes from (a kit line gives one per component). */
type PlannedLine = { line: ReturnLineRow; at: number; kitLineId: string | undefined };

/**
 * `lines[i].quantity: ...` for every line that takes its order line past what shipped minus what other returns
 * claim (lines of one order line add up, in the order given; a kit's component names its kit line).
 */
async function overClaims(tdb: TenantDb, orderId: string, planned: readonly PlannedLine[]) {
  const figures = await shippedAndClaimed(tdb, orderId);
  const returning = new Map<string, number>();
  return planned.flatMap(({ line: l, at, kitLineId }) => {
    const { shipped = 0, claimed = 0 } = figures.get(l.orderLineId) ?? {};
    const total = (returning.get(l.orderLineId) ?? 0) + l.quantity;
    returning.set(l.orderLineId, total);
    const of = kitLineId ? ` (component of kit line ${kitLineId})` : "";
    return total > shipped - claimed
      ? [
          `lines[${at}].quantity: order line ${l.orderLineId}${of} shipped ${shipped}, earlier returns claim ${claimed}, returning ${total}`,
        ]
      : [];
  });
}

/**
 * The order lines a request line returns: the line it names, or, for a kit line (`orders.kit_lines`), each of
 * its component lines with quantity x the component's units per kit. `undefined` when the order has no such line.
 */
function returnedOrderLines(order: LoadedOrder, orderLineId: string, quantity: number) {
  const line = order.lines.find((l) => l.id === orderLineId);
  if (line) return [{ orderLineId, productId: line.productId, quantity, kitLineId: undefined }];
  const kit = order.row.kitLines?.find((k) => k.id === orderLineId);
  if (!kit) return undefined;
  return order.lines
    .filter((l) => l.kitLineId === kit.id)
    .map((l) => ({
      orderLineId: l.id,
      productId: l.productId,
      kitLineId: kit.id,
      // A component line holds kits sold x its units per kit.
      quantity: quantity * (l.quantity / kit.quantity),
    }));
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
  const productOf = (orderLineId: string) =>
    (order.lines.find((l) => l.id === orderLineId) ?? orderRow.kitLines?.find((k) => k.id === orderLineId))
      ?.productId;
  const missing = body.lines.flatMap((l, i) =>
    productOf(l.orderLineId)
      ? []
      : [`lines[${i}].orderLineId: line ${l.orderLineId} not found on order ${orderRow.number}`],
  );
  if (missing.length) throw new AppError("NOT_FOUND", missing[0] as string, { errors: missing });
  // Packs become units first (a kit has no packagings: packs of a kit line are a 400).
  const inUnits = await inBaseUnits(
    tdb,
    body.lines.map((l) => ({ ...l, productId: productOf(l.orderLineId) as string })),
    (i) => `lines[${i}].`,
  );
  const returned = inUnits.map((l) => returnedOrderLines(order, l.orderLineId, l.quantity));

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
  const planned: PlannedLine[] = inUnits.flatMap((l, at) =>
    (returned[at] ?? []).map(({ kitLineId, ...returning }) => ({
      at,
      kitLineId,
      line: {
        ...returning,
        id: uuidv7(),
        tenantId: tdb.tenantId,
        returnId: row.id,
        lineNo: 0,
        orderId: orderRow.id,
        receivedQuantity: 0,
        reason: l.reason,
      },
    })),
  );
  if (planned.length > MAX_RETURN_LINES)
    throw validationError([
      `lines: ${planned.length} return lines once kit lines become their components; at most ${MAX_RETURN_LINES}`,
    ]);
  const lines = planned.map(({ line }, i) => ({ ...line, lineNo: i + 1 }));
  const over = await overClaims(tdb, orderRow.id, planned);
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
    const left = await overClaims(tdb, orderRow.id, planned);
    throw tooMany(
      left.length ? left : ["Another return claimed these units meanwhile; reload the order and retry"],
    );
  }
  return { ...record, number: numbered.number };
}
