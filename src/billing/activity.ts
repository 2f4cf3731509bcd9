import { and, asc, count, eq, gte, lt, lte, min, notExists, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import {
  billingRateCards,
  billingStorageSnapshots,
  locations,
  orders,
  packages,
  pickListLines,
  pickListPicks,
  returnReceiptLines,
  returns,
  shipmentStock,
  shipments,
  stockMovements,
} from "../db/schema/tenant";
import { inTenant, tenantRows } from "../db/tenant-scope";
import type { BilledActivity, BillingUnit } from "../record-schemas/invoice";
import type { LedgerReason } from "../stock";
import type { chargeReferenceTypes } from "./schemas";

/** Something the warehouse did for a merchant that a rate may price: read from its records, never counted aside. */
export interface Activity {
  activity: BilledActivity;
  per: BillingUnit;
  locationType?: string;
  packageType?: string;
  /** The UTC day it happened: the day whose rate card prices it. */
  date: string;
  quantity: number;
  reference: { type: (typeof chargeReferenceTypes)[number]; id: string; at: string };
}

/**
 * What to read: activity recorded in `[from, to)` (instants, as stored timestamps compare), and the storage
 * snapshots of the UTC days `firstDay` to `lastDay` (inclusive; a snapshot exists only for a day that has ended).
 */
export interface Window {
  from: string;
  to: string;
  firstDay: string;
  lastDay: string;
}

const dayOf = (at: string) => at.slice(0, 10);

/**
 * The handle's tenant without its merchant: a merchant's charges are its orders' records, each query below names
 * the merchant itself. Through a merchant-scoped handle the seam would also drop records shared with another
 * merchant (a pick list of both merchants' orders), and a merchant would see less than it is billed for.
 */
function wholeTenant(tdb: TenantDb): TenantDb {
  const { merchantId: _merchant, ...tenant } = tdb;
  return tenant;
}

/**
 * Everything billable of `merchantId` that happened in the window, and its rate cards, in one batch:
 * - receiving: each purchase-order receipt (its ledger rows, reason `received`, of one request): lines and units;
 * - picking: scans on pick lists of its sales orders and units its shipments took straight from storage (picked by
 *   hand): units per order and day, each order line on the day of its first pick, each order on the day of its
 *   first pick;
 * - packing: packages of dispatched shipments, by package type, on the day of dispatch;
 * - returns: units per return receipt, each return on the day of its first receipt;
 * - storage: the daily snapshots (units, and locations holding stock, by location type).
 */
export async function readActivity(scoped: TenantDb, merchantId: string, window: Window) {
  const tdb = wholeTenant(scoped);
  const ofMerchantOrder = (orderId: SQLiteColumn) =>
    inTenant(tdb, orders, eq(orders.id, orderId), eq(orders.merchantId, merchantId));
  const inWindow = (column: SQLiteColumn) => and(gte(column, window.from), lt(column, window.to));
  const firstIn = (first: SQL) => sql`${first} >= ${window.from} and ${first} < ${window.to}`;
  /** A purchase-order receipt's ledger rows in the window (reason `received`, pointing at the order). */
  const receiptLedger = inTenant(
    tdb,
    stockMovements,
    eq(stockMovements.reason, "received" satisfies LedgerReason),
    eq(stockMovements.referenceType, "order"),
    inWindow(stockMovements.createdAt),
  );

  /**
   * Every pick of the merchant's orders, however it was picked: a scan on a pick list, or units a shipment took
   * straight from storage (not from the packing location, where picked units wait), which a person picked by hand
   * (an order packed without a pick list, or shipped by a status update).
   */
  const pickedRows = () =>
    tdb.db
      .select({
        orderId: pickListLines.orderId,
        orderLineId: pickListLines.orderLineId,
        createdAt: pickListPicks.createdAt,
        quantity: pickListPicks.quantity,
      })
      .from(pickListPicks)
      .innerJoin(pickListLines, inTenant(tdb, pickListLines, eq(pickListLines.id, pickListPicks.lineId)))
      .innerJoin(orders, ofMerchantOrder(pickListLines.orderId))
      .where(inTenant(tdb, pickListPicks, eq(pickListPicks.kind, "pick")))
      .unionAll(
        tdb.db
          .select({
            orderId: shipments.orderId,
            orderLineId: shipmentStock.orderLineId,
            createdAt: shipments.createdAt,
            quantity: shipmentStock.quantity,
          })
          .from(shipmentStock)
          .innerJoin(shipments, inTenant(tdb, shipments, eq(shipments.id, shipmentStock.shipmentId)))
          .innerJoin(orders, ofMerchantOrder(shipments.orderId))
          .where(
            inTenant(
              tdb,
              shipmentStock,
              // A location deleted since was emptied, so it was storage: a packing location is never deleted.
              notExists(
                tenantRows(
                  tdb,
                  locations,
                  eq(locations.id, shipmentStock.locationId),
                  eq(locations.type, "packing"),
                ),
              ),
            ),
          ),
      )
      .as("picked");
  const picked = pickedRows();
  const firstLinePicks = pickedRows();
  const firstOrderPicks = pickedRows();
  const receiptLines = tdb.db
    .select({
      returnId: returnReceiptLines.returnId,
      receiptId: returnReceiptLines.receiptId,
      createdAt: returnReceiptLines.createdAt,
      quantity: returnReceiptLines.quantity,
    })
    .from(returnReceiptLines)
    .innerJoin(returns, inTenant(tdb, returns, eq(returns.id, returnReceiptLines.returnId)))
    .innerJoin(orders, ofMerchantOrder(returns.orderId))
    .where(inTenant(tdb, returnReceiptLines))
    .as("receipt_lines");

  const read = await runBatch(tdb, {
    receipts: tdb.db
      .select({
        orderId: sql<string>`${stockMovements.referenceId}`,
        at: sql<string>`min(${stockMovements.createdAt})`,
        lines: count(),
        units: sql<number>`sum(${stockMovements.delta})`,
      })
      .from(stockMovements)
      .innerJoin(orders, ofMerchantOrder(stockMovements.referenceId))
      .where(receiptLedger)
      // One receipt is one request's ledger rows (each level's row takes its own instant).
      .groupBy(
        stockMovements.referenceId,
        sql`coalesce(${stockMovements.requestId}, ${stockMovements.createdAt})`,
      ),
    pickedUnits: tdb.db
      .select({
        orderId: picked.orderId,
        day: sql<string>`substr(${picked.createdAt}, 1, 10)`,
        at: min(picked.createdAt),
        units: sql<number>`sum(${picked.quantity})`,
      })
      .from(picked)
      .where(inWindow(picked.createdAt))
      .groupBy(picked.orderId, sql`substr(${picked.createdAt}, 1, 10)`),
    pickedLines: tdb.db
      .select({ orderId: firstLinePicks.orderId, at: min(firstLinePicks.createdAt) })
      .from(firstLinePicks)
      .groupBy(firstLinePicks.orderLineId)
      .having(firstIn(min(firstLinePicks.createdAt))),
    pickedOrders: tdb.db
      .select({ orderId: firstOrderPicks.orderId, at: min(firstOrderPicks.createdAt) })
      .from(firstOrderPicks)
      .groupBy(firstOrderPicks.orderId)
      .having(firstIn(min(firstOrderPicks.createdAt))),
    packages: tdb.db
      .select({
        shipmentId: shipments.id,
        at: sql<string>`${shipments.dispatchedAt}`,
        packageType: packages.packageType,
        packages: count(),
      })
      .from(packages)
      .innerJoin(shipments, inTenant(tdb, shipments, eq(shipments.id, packages.shipmentId)))
      .innerJoin(orders, ofMerchantOrder(shipments.orderId))
      .where(
        inTenant(
          tdb,
          packages,
          eq(shipments.status, "dispatched"),
          sql`${shipments.dispatchedAt} >= ${window.from} and ${shipments.dispatchedAt} < ${window.to}`,
        ),
      )
      .groupBy(shipments.id, packages.packageType),
    returnedUnits: tdb.db
      .select({
        returnId: receiptLines.returnId,
        at: min(receiptLines.createdAt),
        units: sql<number>`sum(${receiptLines.quantity})`,
      })
      .from(receiptLines)
      .where(inWindow(receiptLines.createdAt))
      .groupBy(receiptLines.receiptId),
    returnsReceived: tdb.db
      .select({ returnId: receiptLines.returnId, at: min(receiptLines.createdAt) })
      .from(receiptLines)
      .groupBy(receiptLines.returnId)
      .having(firstIn(min(receiptLines.createdAt))),
    snapshots: tdb.db
      .select()
      .from(billingStorageSnapshots)
      .where(
        inTenant(
          tdb,
          billingStorageSnapshots,
          eq(billingStorageSnapshots.merchantId, merchantId),
          gte(billingStorageSnapshots.day, window.firstDay),
          lte(billingStorageSnapshots.day, window.lastDay),
        ),
      ),
    cards: tdb.db
      .select()
      .from(billingRateCards)
      .where(
        inTenant(
          tdb,
          billingRateCards,
          eq(billingRateCards.merchantId, merchantId),
          lte(billingRateCards.effectiveFrom, window.lastDay),
        ),
      )
      .orderBy(asc(billingRateCards.effectiveFrom)),
  });

  /** One billed activity of a record, on the UTC day it happened (or `day`, when the read gives it). */
  const happened = (
    what: Pick<Activity, "activity" | "per" | "packageType">,
    type: Activity["reference"]["type"],
    id: string,
    when: string | null,
    quantity: number,
    day?: string,
  ): Activity => {
    const at = when ?? "";
    return { ...what, date: day ?? dayOf(at), quantity, reference: { type, id, at } };
  };
  const activity: Activity[] = [
    ...read.receipts.flatMap((r) => [
      happened({ activity: "receiving", per: "line" }, "receipt", r.orderId, r.at, r.lines),
      happened({ activity: "receiving", per: "unit" }, "receipt", r.orderId, r.at, r.units),
    ]),
    ...read.pickedUnits.map((r) =>
      happened({ activity: "picking", per: "unit" }, "order", r.orderId, r.at, r.units, r.day),
    ),
    ...read.pickedLines.map((r) =>
      happened({ activity: "picking", per: "line" }, "order", r.orderId, r.at, 1),
    ),
    ...read.pickedOrders.map((r) =>
      happened({ activity: "picking", per: "order" }, "order", r.orderId, r.at, 1),
    ),
    ...read.packages.map((r) =>
      happened(
        {
          activity: "packing",
          per: "package",
          ...(r.packageType === null ? {} : { packageType: r.packageType }),
        },
        "shipment",
        r.shipmentId,
        r.at,
        r.packages,
      ),
    ),
    ...read.returnedUnits.map((r) =>
      happened({ activity: "returns", per: "unit" }, "return", r.returnId, r.at, r.units),
    ),
    ...read.returnsReceived.map((r) =>
      happened({ activity: "returns", per: "return" }, "return", r.returnId, r.at, 1),
    ),
    ...read.snapshots.flatMap((s) =>
      s.byLocationType.flatMap(({ locationType, locations, units }): Activity[] => {
        const reference = { type: "snapshot" as const, id: s.id, at: s.takenAt };
        return [
          { activity: "storage", per: "unit_day", locationType, date: s.day, quantity: units, reference },
          {
            activity: "storage",
            per: "location_day",
            locationType,
            date: s.day,
            quantity: locations,
            reference,
          },
        ];
      }),
    ),
  ];
  return { activity: activity.filter((a) => a.quantity > 0), cards: read.cards };
}
