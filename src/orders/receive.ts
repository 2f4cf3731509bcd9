import { eq, sql } from "drizzle-orm";
import type { Actor } from "../auth/principal";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { orderLines } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError, conflict } from "../http/errors";
import { validationError } from "../http/validation";
import { historyInsert } from "../order-core/history";
import { readOrder } from "../order-core/read-order";
import { historyEntry, orderRecord } from "../order-core/records";
import { canReceive, statusAfterReceipt } from "../order-core/state-machine";
import { atVersion, bumpVersion } from "../order-core/version-guard";
import { eventRow } from "../outbox/outbox";
import {
  assertReceivable,
  assertTracking,
  inBaseUnits,
  linesTrackingProblems,
  overCeiling,
  receive,
  resolveLinesLots,
  serialsAlreadyInStock,
  serialsChanged,
  serialsOnTwoLines,
  statementsOf,
  targetLocations,
} from "../stock";

import { productsQuery } from "./order-inputs";
import type { ReceiveBody } from "./schemas";

/**
 * Receives stock against a purchase order's lines in ONE batch guarded by the version read: stock is
 * added (ledger rows, reason `received`), the lines' received quantities grow, and the order moves to
 * partially_received or received by itself. Receiving more than a line ordered is 409; the
 * order_lines CHECK (received <= quantity) backs that up under any concurrency.
 */
export async function receivePurchaseOrder(tdb: TenantDb, actor: Actor, orderId: string, body: ReceiveBody) {
  const [order, found] = await Promise.all([
    readOrder(tdb, orderId),
    targetLocations(
      tdb,
      body.lines.map((l) => l.locationId),
    ),
  ]);
  const tracked = await productsQuery(
    tdb,
    order.lines.map((l) => l.productId),
  );
  const { row } = order;
  if (row.type !== "purchase")
    throw conflict(`Order ${row.number} is a sales order; only purchase orders are received`);
  if (!canReceive(row.status)) {
    throw conflict(
      `Order ${row.number} is ${row.status}; receipts are accepted once ordered and until received`,
    );
  }

  const lineById = new Map(order.lines.map((l) => [l.id, { ...l }]));
  const locationById = new Map(found.map((l) => [l.id, l]));
  const missing = body.lines.flatMap((l, i) => [
    ...(lineById.has(l.lineId)
      ? []
      : [`lines[${i}].lineId: line ${l.lineId} not found on order ${row.number}`]),
    ...(locationById.has(l.locationId) ? [] : [`lines[${i}].locationId: location ${l.locationId} not found`]),
  ]);
  if (missing.length)
    throw new AppError("NOT_FOUND", "Order line or location not found", { errors: missing });
  const input = {
    lines: await inBaseUnits(
      tdb,
      body.lines.map((l) => ({ ...l, productId: lineById.get(l.lineId)?.productId ?? "" })),
      (i) => `lines[${i}].`,
    ),
  };
  const elsewhere = input.lines.flatMap((l, i) =>
    locationById.get(l.locationId)?.warehouseId === row.warehouseId
      ? []
      : [`lines[${i}].locationId: location ${l.locationId} is not in the order's warehouse`],
  );
  if (elsewhere.length) throw validationError(elsewhere);
  for (const location of found) assertReceivable(location);

  // Apply in memory first: the over-receipt check and the new status come from the same figures.
  const over: string[] = [];
  input.lines.forEach((l, i) => {
    const line = lineById.get(l.lineId);
    if (!line) return;
    const open = line.quantity - line.receivedQuantity;
    if (l.quantity > open) {
      over.push(
        `lines[${i}]: line ${line.lineNo} ordered ${line.quantity}, open ${open}, receiving ${l.quantity}`,
      );
    }
    line.receivedQuantity += l.quantity;
  });
  if (over.length) throw conflict("Receiving more than was ordered", over);

  // Lots and serials: each line names what its product's tracking needs; new lots are created.
  const productById = new Map(tracked.map((p) => [p.id, p]));
  const productOf = (lineId: string) => productById.get(lineById.get(lineId)?.productId ?? "");
  const withProducts = input.lines.map((l) => {
    const product = productOf(l.lineId);
    return { ...l, product, productId: product?.id ?? "" };
  });
  assertTracking([...linesTrackingProblems(withProducts), ...serialsOnTwoLines(withProducts)]);
  const lotOf = await resolveLinesLots(tdb, withProducts, "add");
  const serialIssues = await serialsAlreadyInStock(tdb, withProducts);
  if (serialIssues.length) throw conflict(serialIssues[0] as string, serialIssues);

  const now = new Date().toISOString();
  const after = [...lineById.values()];
  const to = statusAfterReceipt(after);
  const guard = atVersion(tdb, orderId, row.version);
  const why = {
    reason: "received" as const,
    referenceType: "order",
    referenceId: orderId,
    notes: null,
    ...actor,
    now,
  };
  const history =
    to === row.status ? order.history : [...order.history, historyEntry(row, row.status, to, actor, now)];
  const record = orderRecord(
    { ...row, status: to, updatedAt: now, version: row.version + 1 },
    after,
    history,
  );
  const receipt = input.lines.map((l) => {
    const productId = lineById.get(l.lineId)?.productId ?? "";
    return { ...l, productId, lotId: l.lotNumber === undefined ? undefined : lotOf(productId, l.lotNumber) };
  });
  const statusChanged = to !== row.status;

  const written = await runBatch(tdb, {
    receipt: receipt.flatMap((l) => [
      ...statementsOf(receive(tdb, { ...l, warehouseId: row.warehouseId ?? "" }, why, { guard })),
      tdb.db
        .update(orderLines)
        .set({ receivedQuantity: sql`${orderLines.receivedQuantity} + ${l.quantity}` })
        .where(inTenant(tdb, orderLines, eq(orderLines.id, l.lineId), guard)),
    ]),
    history: statusChanged ? historyInsert(tdb, orderId, row.status, to, actor, now, guard) : undefined,
    received: eventRow(tdb, "purchase_order.received", { ...record, receipt }, now, { onlyIf: guard }),
    statusChanged: statusChanged
      ? eventRow(tdb, "order.status_changed", record, now, { onlyIf: guard })
      : undefined,
    // Last: the version bump that turns a concurrent receipt's batch into a no-op.
    version: bumpVersion(tdb, orderId, row.version, { status: to, updatedAt: now }),
  }).catch(async (error) => {
    throw await answerFor<AppError | Promise<AppError>>(error, {
      order_lines_received_check: () => conflict("Receiving more than was ordered"),
      stock_levels_on_hand_max_check: () =>
        overCeiling(
          tdb,
          receipt.map((l, i) => ({ ...l, field: `lines[${i}].quantity` })),
        ),
      serial_numbers_on_hand_check: serialsChanged,
    });
  });
  if (changesOf(written.version) === 0) {
    throw conflict(`Order ${row.number} was changed by another request; reload it and retry`);
  }
  return record;
}
