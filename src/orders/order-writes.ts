import { eq, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { chunks } from "../db/batch";
import type { TenantDb } from "../db/client";
import { compiled, compiledInsert } from "../db/compiled";
import { orderCounters, orderLines, orderStatusHistory, orders } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { historyEntry, type OrderLineRow, type OrderRow } from "../order-core/records";
import { compiledEventRow, storedPayload } from "../outbox/outbox";

const numberPrefix = { sales: "SO", purchase: "PO" } as const;

// 13 bound values per line, D1 allows 100 per statement.
const LINES_PER_INSERT = 7;

const bumpCounter = compiled((tdb, v: { type: OrderRow["type"] }) =>
  tdb.db
    .insert(orderCounters)
    .values({ tenantId: tdb.tenantId, type: v.type, value: 1 })
    .onConflictDoUpdate({
      target: [orderCounters.tenantId, orderCounters.type],
      set: { value: sql`${orderCounters.value} + 1` },
    }),
);

const insertNumberedOrder = compiled((tdb, row: Omit<OrderRow, "number">, k: { type: OrderRow["type"] }) =>
  tdb.db.insert(orders).values({
    ...row,
    tenantId: tdb.tenantId,
    number: sql`${tdb.db
      .select({ number: sql`${numberPrefix[k.type]} || '-' || printf('%06d', ${orderCounters.value})` })
      .from(orderCounters)
      .where(inTenant(tdb, orderCounters, eq(orderCounters.type, row.type)))}`,
  }),
);

const insertLines = compiledInsert(orderLines);
const insertHistory = compiledInsert(orderStatusHistory);

/**
 * The statements that create an order: bump the tenant's counter and take the order's number from it
 * in the same batch, so numbers are gapless (a failed batch rolls the counter back too) and two
 * concurrent creations can never read the same value (batches run one at a time). Compiled once per
 * isolate (src/db/compiled.ts).
 */
export function insertOrder(
  tdb: TenantDb,
  row: Omit<OrderRow, "number">,
  lines: readonly OrderLineRow[],
  actor: Actor,
) {
  return [
    bumpCounter(tdb, { type: row.type }),
    insertNumberedOrder(tdb, row, { type: row.type }),
    ...chunks(lines, LINES_PER_INSERT).map((chunk) => insertLines(tdb, chunk)),
    insertHistory(tdb, [{ ...historyEntry(row, null, row.status, actor, row.createdAt), id: uuidv7() }]),
  ] as const;
}

/** The order's number (given by its creating batch). */
const numberQuery = (tdb: TenantDb, orderId: string) =>
  tdb.db
    .select({ number: orders.number })
    .from(orders)
    .where(inTenant(tdb, orders, eq(orders.id, orderId)));

const numberOf = compiled((tdb, v: { orderId: string }) => numberQuery(tdb, v.orderId));

/** The number the creating batch gave the order, read at the end of the batch. */
export const selectNumber = (tdb: TenantDb, orderId: string) => numberOf(tdb, { orderId });

/**
 * `order.created`: a new order as its payload (`record`, JSON), whose number only exists inside the creating
 * batch, so SQL fills it in.
 */
const orderCreated = compiledEventRow("order.created", (tdb, v: { record: string; orderId: string }) => ({
  payload: sql`json_set(${v.record}, '$.number', (${numberQuery(tdb, v.orderId)}))`,
}));

/** The `order.created` event of a new order (`record`, the order as returned without its number). */
export const orderCreatedEvent = (tdb: TenantDb, orderId: string, record: unknown, now: string) =>
  orderCreated(tdb, { record: storedPayload("order.created", record), orderId }, now);
