import { eq, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { changesOf, runBatch, type Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { products, returnLines, returns } from "../db/schema/tenant";
import { inTenant, inTenantAmong } from "../db/tenant-scope";
import { type AppError, conflict } from "../http/errors";
import { eventRow } from "../outbox/outbox";
import {
  assertTracking,
  issue,
  type LedgerReason,
  type Level,
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

import { assertLines, assertPlaces, assertWithinAuthorized, unshippedProblems } from "./receipt-checks";
import { receiptInUnits, receiptLinesInsert, receiptLineViews } from "./receipt-lines";
import {
  type LoadedReturn,
  loadReturn,
  type ReceiptLineView,
  returnAtVersion,
  returnRecord,
} from "./records";
import type { ReceiptInUnits, ReturnReceiptBody } from "./schemas";
import { returnedSerials, shippedUnitsOf } from "./shipped";

type ReceiptInput = ReceiptInUnits["lines"][number];

/** The ledger reason of each disposition's stock (scrap: the arrival, then the write-off). */
const REASONS = {
  restock: "return_restock",
  quarantine: "return_quarantine",
  scrapArrival: "return_received",
  scrap: "return_scrap",
} as const;

/**
 * Receives goods of an authorized return: each line restocks (a sellable location, ledger `return_restock`),
 * quarantines (a non-sellable location, `return_quarantine`) or scraps (`return_received` then `return_scrap`:
 * no stock, but the movement report shows it). Lots and serials must have shipped on the order line, a serial
 * at most once back. One batch guarded by the return's version; the return line's CHECK (received <= quantity)
 * refuses receiving more than was authorized under any concurrency. Every authorized unit received: `received`
 * and `return.received`.
 */
export async function receiveReturn(tdb: TenantDb, actor: Actor, id: string, request: ReturnReceiptBody) {
  const loaded = await loadReturn(tdb, id);
  const { row } = loaded;
  if (row.status !== "authorized") {
    throw conflict(`Return ${row.number} is ${row.status}; goods are received while it is authorized`);
  }
  assertLines(loaded, request);
  const body = await receiptInUnits(tdb, loaded, request);
  assertWithinAuthorized(loaded, body);
  const lineOf = (l: ReceiptInput) =>
    loaded.lines.find((r) => r.id === l.returnLineId) as LoadedReturn["lines"][number];

  const locationIds = body.lines.flatMap((l) => (l.locationId ? [l.locationId] : []));
  const productIds = [...new Set(loaded.lines.map((l) => l.productId))];
  const [found, tracked, shipped, returned] = await Promise.all([
    targetLocations(tdb, locationIds),
    tdb.db
      .select({ id: products.id, sku: products.sku, tracking: products.tracking })
      .from(products)
      .where(inTenantAmong(tdb, products, productIds)),
    shippedUnitsOf(tdb, row.orderId),
    returnedSerials(
      tdb,
      body.lines.map((l) => lineOf(l).orderLineId),
    ),
  ]);
  const locationById = new Map(found.map((l) => [l.id, l]));
  assertPlaces(body, locationById);

  // Tracking: the fields the product needs (400), then lots and serials that shipped on the line (409).
  const productById = new Map(tracked.map((p) => [p.id, p]));
  const withProducts = body.lines.map((l) => {
    const productId = lineOf(l).productId;
    return { ...l, productId, product: productById.get(productId) };
  });
  assertTracking(linesTrackingProblems(withProducts));
  const unshipped = unshippedProblems(body.lines.map(lineOf), body, shipped, returned);
  // Scrapped units never stand in stock: only the others' serials must be out of it.
  const inStock = await serialsAlreadyInStock(
    tdb,
    withProducts.map((l) => (l.disposition === "scrap" ? { ...l, serialNumbers: undefined } : l)),
  );
  const refused = [...unshipped, ...serialsOnTwoLines(withProducts), ...inStock];
  if (refused.length) throw conflict(refused[0] as string, refused);

  const lotOf = await resolveLinesLots(tdb, withProducts, "take");
  const now = new Date().toISOString();
  const receiptId = uuidv7();
  const receipt = await receiptLineViews(tdb, body.lines.map(lineOf), body, {
    locationById,
    shipped,
    head: { receiptId, returnId: row.id, actor, now },
  });
  const lines = loaded.lines.map((line) => ({
    ...line,
    receivedQuantity:
      line.receivedQuantity +
      receipt.reduce((sum, r) => sum + (r.returnLineId === line.id ? r.quantity : 0), 0),
  }));
  const complete = lines.every((l) => l.receivedQuantity === l.quantity);
  const after = {
    ...row,
    status: complete ? ("received" as const) : row.status,
    receivedAt: complete ? now : row.receivedAt,
    updatedAt: now,
  };
  const record = returnRecord(after, lines, [...loaded.receipts, ...receipt]);

  const guard = returnAtVersion(tdb, row.id, row.version);
  const why = (reason: LedgerReason) => ({
    reason,
    referenceType: "return",
    referenceId: row.id,
    notes: null,
    ...actor,
    now,
  });
  const levelOf = (r: ReceiptLineView): Level & { warehouseId: string } => ({
    productId: r.productId,
    locationId: r.locationId,
    warehouseId: r.warehouseId,
    lotId: r.lotNumber === null ? undefined : lotOf(r.productId, r.lotNumber),
  });
  const stock = (r: ReceiptLineView): Statement[] => {
    const line = { ...levelOf(r), quantity: r.quantity, serialNumbers: r.serialNumbers };
    if (r.disposition !== "scrap")
      return statementsOf(receive(tdb, line, why(REASONS[r.disposition]), { guard }));
    // Scrap: the units arrive and are written off in the same batch; their serials never stand in stock.
    const ledgerOnly = { guard, serials: "ledger only" } as const;
    return [
      ...statementsOf(receive(tdb, line, why(REASONS.scrapArrival), ledgerOnly)),
      ...statementsOf(issue(tdb, line, why(REASONS.scrap), ledgerOnly)),
    ];
  };
  const receiptJson = JSON.stringify(
    receipt.map((r) => ({ ...r, id: uuidv7(), lotId: levelOf(r).lotId ?? "" })),
  );

  const written = await runBatch(tdb, {
    stock: receipt.flatMap(stock),
    lines: receipt.map((r) =>
      tdb.db
        .update(returnLines)
        .set({ receivedQuantity: sql`${returnLines.receivedQuantity} + ${r.quantity}` })
        .where(inTenant(tdb, returnLines, eq(returnLines.id, r.returnLineId), guard)),
    ),
    receipt: receiptLinesInsert(tdb, receiptJson, { receiptId, returnId: row.id, actor, now }, guard),
    event: complete ? eventRow(tdb, "return.received", record, now, { onlyIf: guard }) : undefined,
    // Last: the version bump that turns a concurrent change's batch into a no-op.
    version: tdb.db
      .update(returns)
      .set({
        status: after.status,
        receivedAt: after.receivedAt,
        updatedAt: now,
        version: sql`${returns.version} + 1`,
      })
      .where(inTenant(tdb, returns, eq(returns.id, row.id), eq(returns.version, row.version))),
  }).catch(async (error) => {
    throw await answerFor<AppError | Promise<AppError>>(error, {
      return_lines_received_check: () =>
        conflict(`Return ${row.number} received these units meanwhile; reload it`),
      stock_levels_on_hand_max_check: () =>
        overCeiling(
          tdb,
          receipt.map((r, i) => ({ ...levelOf(r), quantity: r.quantity, field: `lines[${i}].quantity` })),
        ),
      serial_numbers_on_hand_check: serialsChanged,
    });
  });
  if (changesOf(written.version) === 0) {
    throw conflict(`Return ${row.number} was changed by another request; reload it and retry`);
  }
  return record;
}
