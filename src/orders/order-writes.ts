import { eq, type SQL, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { chunks } from "../db/batch";
import type { TenantDb } from "../db/client";
import { orderCounters, orderLines, orderStatusHistory, orders } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { historyEntry, type OrderLineRow, type OrderRow } from "../order-core/records";
import { storedPayload } from "../outbox/outbox";

const numberPrefix = { sales: "SO", purchase: "PO" } as const;

// 13 bound values per line, D1 allows 100 per statement.
const LINES_PER_INSERT = 7;

/**
 * The statements that create an order: bump the tenant's counter and take the order's number from it
 * in the same batch, so numbers are gapless (a failed batch rolls the counter back too) and two
 * concurrent creations can never read the same value (batches run one at a time).
 */
export function insertOrder(
  tdb: TenantDb,
  row: Omit<OrderRow, "number">,
  lines: readonly OrderLineRow[],
  actor: Actor,
) {
  const { tenantId, db } = tdb;
  return [
    db
      .insert(orderCounters)
      .values({ tenantId, type: row.type, value: 1 })
      .onConflictDoUpdate({
        target: [orderCounters.tenantId, orderCounters.type],
        set: { value: sql`${orderCounters.value} + 1` },
      }),
    db.insert(orders).values({
      ...row,
      number: sql`${db
        .select({ number: sql`${numberPrefix[row.type]} || '-' || printf('%06d', ${orderCounters.value})` })
        .from(orderCounters)
        .where(inTenant(tdb, orderCounters, eq(orderCounters.type, row.type)))}`,
    }),
    ...chunks(lines, LINES_PER_INSERT).map((chunk) => db.insert(orderLines).values(chunk)),
    db
      .insert(orderStatusHistory)
      .values({ ...historyEntry(row, null, row.status, actor, row.createdAt), id: uuidv7() }),
  ] as const;
}

/** The number the creating batch gave the order, read at the end of the batch. */
export function selectNumber(tdb: TenantDb, orderId: string) {
  return tdb.db
    .select({ number: orders.number })
    .from(orders)
    .where(inTenant(tdb, orders, eq(orders.id, orderId)));
}

/** A new order as an event payload: its number only exists inside the creating batch, so SQL fills it in. */
export function withOrderNumber(tdb: TenantDb, orderId: string, record: unknown): SQL {
  return sql`json_set(${storedPayload("order.created", record)}, '$.number', ${selectNumber(tdb, orderId)})`;
}
