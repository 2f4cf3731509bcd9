import { eq } from "drizzle-orm";
import type { Actor } from "../auth/principal";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { orderLines, orderReservations } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import { validationError } from "../http/validation";
import { historyInsert } from "../order-core/history";
import { type LoadedOrder, readOrder } from "../order-core/read-order";
import { historyEntry, orderRecord } from "../order-core/records";
import { allowedTransitions, canTransition, shipsStock } from "../order-core/state-machine";
import { atVersion, bumpVersion } from "../order-core/version-guard";
import type { EventType } from "../outbox/catalog";
import { eventRow } from "../outbox/outbox";
import { dispatchedPayload, shipmentInOrderEvent } from "../shipment-core/records";
import { shipmentStatements } from "../shipment-core/statements";
import { byStockLevel, release, serialsChanged } from "../stock";

import { pickedSerials } from "./picked-serials";
import { remainderShipment } from "./remainder-shipment";
import type { UpdateStatusBody } from "./schemas";

/** The events a move causes, besides order.status_changed. */
function eventsFor(from: string, to: string): EventType[] {
  const events: EventType[] = ["order.status_changed"];
  if (shipsStock(from, to)) events.push("order.shipped");
  if (to === "delivered") events.push("order.delivered");
  if (to === "cancelled") events.push("order.cancelled");
  return events;
}

function refuse(order: LoadedOrder["row"], to: string) {
  const allowed = allowedTransitions(order.type, order.status);
  const next = allowed.length ? allowed.join(", ") : `none (${order.status} is final)`;
  return conflict(`Cannot move order ${order.number} from ${order.status} to ${to}`, [
    `status: ${order.type} order ${order.number} is ${order.status}; allowed next statuses: ${next}`,
  ]);
}

/**
 * Moves an order along its state machine in ONE batch guarded by the version read: shipping consumes
 * the reservations (ledger rows, reason `shipped`), cancelling releases them. Of two conflicting
 * changes, the one whose batch runs second finds a newer version, changes nothing and gets 409.
 * `beforeWrite` is awaited before the batch: the reads may have run alongside the API key's lookup.
 */
export async function changeStatus(
  tdb: TenantDb,
  actor: Actor,
  orderId: string,
  input: UpdateStatusBody,
  beforeWrite: () => Promise<void>,
) {
  const order = await readOrder(tdb, orderId);
  const { row } = order;
  const to = input.status;
  if (!canTransition(row.type, row.status, to)) throw refuse(row, to);
  const ships = row.type === "sales" && shipsStock(row.status, to);
  if (input.trackingNumber && !ships && to !== "shipped") {
    throw validationError(["trackingNumber: only accepted when the order is shipped"]);
  }
  if (input.lines && !ships) throw validationError(["lines: serial numbers are only accepted when shipping"]);
  const picked = ships ? await pickedSerials(tdb, order, input.lines) : undefined;

  const now = new Date().toISOString();
  const guard = atVersion(tdb, orderId, row.version);
  const shipping =
    ships && picked
      ? await remainderShipment(tdb, order, picked, input.trackingNumber, actor, now)
      : undefined;
  const stockStatements = shipping
    ? shipmentStatements(
        tdb,
        shipping.row,
        shipping.packages,
        shipping.plan,
        {
          actor,
          now,
          // As before shipments existed: the ledger rows point at the order, reason `shipped`.
          ledger: { reason: "shipped", referenceType: "order", referenceId: orderId },
        },
        guard,
      )
    : to === "cancelled"
      ? byStockLevel(order.reservations).map((s) => release(tdb, s, now, guard))
      : [];
  const releasesReservations = ships || to === "cancelled";

  const after = {
    ...row,
    status: to,
    trackingNumber: input.trackingNumber ?? row.trackingNumber,
    updatedAt: now,
  };
  const history = [...order.history, historyEntry(row, row.status, to, actor, now)];
  const lines = order.lines.map((l) => ({
    ...l,
    shippedQuantity: l.shippedQuantity + (shipping?.plan.shipped.get(l.id) ?? 0),
    serialNumbers: picked?.byLine.get(l.id) ?? l.serialNumbers,
  }));
  const record = orderRecord({ ...after, version: row.version + 1 }, lines, history);
  // order.shipped keeps its payload (the order) and gains the order's shipments (packages without contents).
  const payloadOf = (type: EventType) =>
    type === "order.shipped" && shipping
      ? { ...record, shipments: [...shipping.earlier, shipping.record].map(shipmentInOrderEvent) }
      : record;

  await beforeWrite();
  const written = await runBatch(tdb, {
    history: historyInsert(tdb, orderId, row.status, to, actor, now, guard),
    stock: stockStatements,
    serialNumbers: [...(picked?.byLine ?? [])].map(([lineId, serials]) =>
      tdb.db
        .update(orderLines)
        .set({ serialNumbers: serials })
        .where(inTenant(tdb, orderLines, eq(orderLines.id, lineId), guard)),
    ),
    reservations: releasesReservations
      ? tdb.db
          .delete(orderReservations)
          .where(inTenant(tdb, orderReservations, eq(orderReservations.orderId, orderId), guard))
      : undefined,
    events: [
      ...eventsFor(row.status, to).map((type) =>
        eventRow(tdb, type, payloadOf(type), now, { onlyIf: guard }),
      ),
      ...(shipping
        ? [eventRow(tdb, "shipment.dispatched", dispatchedPayload(shipping.record), now, { onlyIf: guard })]
        : []),
    ],
    // Last: bumping the version is what makes every statement above a no-op for a concurrent change.
    version: bumpVersion(tdb, orderId, row.version, {
      status: to,
      trackingNumber: after.trackingNumber,
      updatedAt: now,
    }),
  }).catch((error) => {
    throw answerFor(error, { serial_numbers_on_hand_check: serialsChanged });
  });
  if (changesOf(written.version) === 0) {
    throw conflict(`Order ${row.number} was changed by another request; reload it and retry`);
  }
  return record;
}
