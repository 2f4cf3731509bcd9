import { eq, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { changesOf, runBatch, type Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { insertSelect } from "../db/insert-select";
import { products, returnLines, returnReceiptLines, returns } from "../db/schema/tenant";
import { inTenant, inTenantAmong } from "../db/tenant-scope";
import { AppError, conflict } from "../http/errors";
import { eventRow } from "../outbox/outbox";
import { overCeiling } from "../stock/level-ceiling";
import { receiveUnits } from "../stock/order-stock";
import { packingLocations } from "../stock/packing-location";
import { inBaseUnits } from "../stock/packs";
import { changeLevel, type LedgerContext, type Level, ledgerRow } from "../stock/statements";
import { targetLocations } from "../stock/targets";
import {
  assertTracking,
  receiveSerials,
  resolveLots,
  serialProblems,
  serialsChanged,
  serialsOnTwoLines,
  trackingProblems,
} from "../stock/tracked-stock";
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
type Location = Awaited<ReturnType<typeof targetLocations>>[number];

/** The ledger reason of each disposition's stock (scrap: the arrival, then the write-off). */
const REASONS = {
  restock: "return_restock",
  quarantine: "return_quarantine",
  scrapArrival: "return_received",
  scrap: "return_scrap",
} as const;

/** 404 for lines not on the return. */
function assertLines(loaded: LoadedReturn, body: ReturnReceiptBody) {
  const { row, lines } = loaded;
  const missing = body.lines.flatMap((l, i) =>
    lines.some((line) => line.id === l.returnLineId)
      ? []
      : [`lines[${i}].returnLineId: line ${l.returnLineId} not found on return ${row.number}`],
  );
  if (missing.length) throw new AppError("NOT_FOUND", missing[0] as string, { errors: missing });
}

/** 409 for lines receiving more than their return line has left (lines of one return line add up). */
function assertWithinAuthorized(loaded: LoadedReturn, body: ReceiptInUnits) {
  const receiving = new Map<string, number>();
  const over = body.lines.flatMap((l, i) => {
    const line = loaded.lines.find((r) => r.id === l.returnLineId);
    if (!line) return [];
    const before = receiving.get(line.id) ?? 0;
    receiving.set(line.id, before + l.quantity);
    const left = line.quantity - line.receivedQuantity - before;
    return l.quantity > left
      ? [
          `lines[${i}].quantity: return line ${line.lineNo} authorized ${line.quantity}, received ${line.receivedQuantity + before}, receiving ${l.quantity}`,
        ]
      : [];
  });
  if (over.length) throw conflict("Receiving more than was authorized", over);
}

/** Each disposition's place: restock at an active sellable location, quarantine at an active non-sellable one. */
function placeProblems(l: ReceiptInput, i: number, location: Location | undefined): string[] {
  if (l.locationId === undefined) return [];
  if (!location) return [];
  const field = `lines[${i}].locationId`;
  if (!location.active) return [`${field}: location ${location.code} is inactive and cannot receive stock`];
  if (l.disposition === "restock" && !location.sellable) {
    return [`${field}: location ${location.code} is not sellable; restock puts units at a sellable location`];
  }
  if (l.disposition === "quarantine" && location.sellable) {
    return [
      `${field}: location ${location.code} is sellable; quarantine puts units at a non-sellable location`,
    ];
  }
  return [];
}

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
  // Packs become units first, against each return line's product.
  const units = await inBaseUnits(
    tdb,
    request.lines.map(({ packaging, packs, quantity, returnLineId }) => ({
      productId: loaded.lines.find((r) => r.id === returnLineId)?.productId as string,
      packaging,
      packs,
      quantity,
    })),
    (i) => `lines[${i}].`,
  );
  const body: ReceiptInUnits = {
    lines: request.lines.map((l, i) => ({ ...l, quantity: units[i]?.quantity ?? 0 })),
  };
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
  const unknown = body.lines.flatMap((l, i) =>
    l.locationId && !locationById.has(l.locationId)
      ? [`lines[${i}].locationId: location ${l.locationId} not found`]
      : [],
  );
  if (unknown.length) throw new AppError("NOT_FOUND", unknown[0] as string, { errors: unknown });
  const misplaced = body.lines.flatMap((l, i) => placeProblems(l, i, locationById.get(l.locationId ?? "")));
  if (misplaced.length) throw conflict(misplaced[0] as string, misplaced);

  // Tracking: the fields the product needs (400), then lots and serials that shipped on the line (409).
  const productById = new Map(tracked.map((p) => [p.id, p]));
  const productOf = (l: ReceiptInput) => productById.get(lineOf(l).productId);
  assertTracking(
    body.lines.flatMap((l, i) => {
      const product = productOf(l);
      return product ? trackingProblems(product, l, l.quantity, `lines[${i}].`) : [];
    }),
  );
  const unshipped = body.lines.flatMap((l, i) => {
    const orderLineId = lineOf(l).orderLineId;
    const lot =
      l.lotNumber !== undefined && !shipped.lots(orderLineId).has(l.lotNumber)
        ? [`lines[${i}].lotNumber: lot ${l.lotNumber} did not ship on order line ${orderLineId}`]
        : [];
    const serials = (l.serialNumbers ?? []).flatMap((serial) => {
      if (!shipped.serials(orderLineId).has(serial)) {
        return [`lines[${i}].serialNumbers: ${serial} did not ship on order line ${orderLineId}`];
      }
      const on = returned(orderLineId, serial);
      return on ? [`lines[${i}].serialNumbers: ${serial} was already received back on return ${on}`] : [];
    });
    return [...lot, ...serials];
  });
  const inStock = (
    await Promise.all(
      body.lines.map((l, i) =>
        l.serialNumbers && l.disposition !== "scrap"
          ? serialProblems(tdb, lineOf(l).productId, l.serialNumbers, { mode: "add" }, `lines[${i}].`)
          : [],
      ),
    )
  ).flat();
  const serialTwice = serialsOnTwoLines(body.lines.map((l) => ({ ...l, productId: lineOf(l).productId })));
  const refused = [...unshipped, ...serialTwice, ...inStock];
  if (refused.length) throw conflict(refused[0] as string, refused);

  const lotOf = await resolveLots(
    tdb,
    body.lines.flatMap((l, i) => {
      const product = productOf(l);
      return product && l.lotNumber !== undefined
        ? [{ productId: product.id, sku: product.sku, lotNumber: l.lotNumber, field: `lines[${i}].` }]
        : [];
    }),
    "take",
  );
  // Scrap without a location: booked at the packing location of the warehouse the units shipped from.
  const scrapWarehouses = [
    ...new Set(
      body.lines.flatMap((l) =>
        l.locationId === undefined ? [shipped.warehouse(lineOf(l).orderLineId) ?? ""] : [],
      ),
    ),
  ];
  const packing = scrapWarehouses.length
    ? await packingLocations(tdb, scrapWarehouses)
    : new Map<string, string>();

  const now = new Date().toISOString();
  const receiptId = uuidv7();
  const receipt: ReceiptLineView[] = body.lines.map((l) => {
    const line = lineOf(l);
    const location = l.locationId ? locationById.get(l.locationId) : undefined;
    const warehouseId = location?.warehouseId ?? shipped.warehouse(line.orderLineId) ?? "";
    return {
      receiptId,
      returnId: row.id,
      returnLineId: line.id,
      productId: line.productId,
      quantity: l.quantity,
      disposition: l.disposition,
      locationId: l.locationId ?? packing.get(warehouseId) ?? "",
      warehouseId,
      lotNumber: l.lotNumber ?? null,
      serialNumbers: l.serialNumbers ?? null,
      actorType: actor.actorType,
      actorId: actor.actorId,
      createdAt: now,
    };
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
  const ledger = (reason: string, serialNumbers: readonly string[] | null): LedgerContext => ({
    reason,
    referenceType: "return",
    referenceId: row.id,
    notes: null,
    ...actor,
    now,
    serialNumbers,
  });
  const levelOf = (r: ReceiptLineView): Level & { warehouseId: string } => ({
    productId: r.productId,
    locationId: r.locationId,
    warehouseId: r.warehouseId,
    lotId: r.lotNumber === null ? undefined : lotOf(r.productId, r.lotNumber),
  });
  const stock = (r: ReceiptLineView): Statement[] => {
    const level = levelOf(r);
    if (r.disposition === "scrap") {
      return [
        ...receiveUnits(tdb, level, r.quantity, ledger(REASONS.scrapArrival, r.serialNumbers), guard),
        changeLevel(tdb, level, { onHand: -r.quantity }, now, guard),
        ledgerRow(tdb, uuidv7(), level, -r.quantity, ledger(REASONS.scrap, r.serialNumbers), guard),
      ];
    }
    return [
      ...receiveUnits(tdb, level, r.quantity, ledger(REASONS[r.disposition], r.serialNumbers), guard),
      ...(r.serialNumbers ? [receiveSerials(tdb, r.productId, level, r.serialNumbers, now, guard)] : []),
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
    receipt: insertSelect(
      returnReceiptLines,
      {
        id: sql`j.value ->> 'id'`,
        tenantId: tdb.tenantId,
        receiptId,
        returnId: row.id,
        returnLineId: sql`j.value ->> 'returnLineId'`,
        productId: sql`j.value ->> 'productId'`,
        quantity: sql`j.value ->> 'quantity'`,
        disposition: sql`j.value ->> 'disposition'`,
        locationId: sql`j.value ->> 'locationId'`,
        warehouseId: sql`j.value ->> 'warehouseId'`,
        lotId: sql`j.value ->> 'lotId'`,
        serialNumbers: sql`j.value -> 'serialNumbers'`,
        actorType: actor.actorType,
        actorId: actor.actorId,
        createdAt: now,
      },
      sql`from json_each(${receiptJson}) j where ${guard}`,
    ),
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
