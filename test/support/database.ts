import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { dbFor, platformDb } from "../../src/db/client";

// Looking under the API: what no endpoint shows (hashes and secrets at rest, ledger sums, outbox rows) or
// what a test must change to stand in for time passing. Reached through the app's own database seam, so
// these reads follow a tenant wherever src/db places it.

/** The D1 database holding `tenantId`'s tables. */
export const tenantDatabase = async (tenantId: string): Promise<D1Database> =>
  (await dbFor(env, tenantId)).db.$client;

/** The D1 database holding the platform tables (tenants, users, memberships, API key index, refresh tokens). */
export const platformDatabase = (): D1Database => platformDb(env).$client;

export interface LevelCheck {
  productId: string;
  locationId: string;
  onHand: number;
  reserved: number;
  ledger: number;
  /** '' for stock without a lot. */
  lotId: string;
}

/** Every stock level (product, location, lot) of the tenant with the sum of its ledger rows. */
export async function levelsWithLedger(tenant: { id: string }): Promise<LevelCheck[]> {
  const { results } = await (await tenantDatabase(tenant.id))
    .prepare(
      `select s.product_id as productId, s.location_id as locationId, s.lot_id as lotId, s.on_hand as onHand,
          s.reserved as reserved,
          coalesce((select sum(m.delta) from stock_movements m where m.tenant_id = s.tenant_id
            and m.product_id = s.product_id and m.location_id = s.location_id and m.lot_id = s.lot_id), 0) as ledger
       from stock_levels s where s.tenant_id = ? order by s.product_id, s.location_id, s.lot_id`,
    )
    .bind(tenant.id)
    .all<LevelCheck>();
  return results;
}

/** Every stock level of a product with the sum of its ledger. */
export async function stockOf(tenant: { id: string }, productId: string): Promise<LevelCheck[]> {
  return (await levelsWithLedger(tenant)).filter((level) => level.productId === productId);
}

/** `stockOf`, each level checked: none negative or over-reserved, each equal to the sum of its ledger. */
export async function checkedStockOf(tenant: { id: string }, productId: string): Promise<LevelCheck[]> {
  const levels = await stockOf(tenant, productId);
  for (const level of levels) {
    expect(level.onHand).toBeGreaterThanOrEqual(0);
    expect(level.reserved).toBeGreaterThanOrEqual(0);
    expect(level.reserved).toBeLessThanOrEqual(level.onHand);
    expect(level.ledger).toBe(level.onHand);
  }
  return levels;
}

/** Sum of the open reservations of a product (what `reserved` must equal). */
export async function openReservations(tenant: { id: string }, productId: string): Promise<number> {
  const row = await (await tenantDatabase(tenant.id))
    .prepare(
      "select coalesce(sum(quantity), 0) as total from order_reservations where tenant_id = ? and product_id = ?",
    )
    .bind(tenant.id, productId)
    .first<{ total: number }>();
  return row?.total ?? 0;
}

export interface OutboxEvent {
  id: string;
  type: string;
  payload: Record<string, unknown>;
}

/** The tenant's outbox events in commit order; `types` keeps those whose type it matches. */
export async function outboxEvents(tenant: { id: string }, types?: RegExp): Promise<OutboxEvent[]> {
  const { results } = await (await tenantDatabase(tenant.id))
    .prepare("select id, type, payload from outbox_events where tenant_id = ? order by seq")
    .bind(tenant.id)
    .all<{ id: string; type: string; payload: string }>();
  return results
    .filter((row) => !types || types.test(row.type))
    .map((row) => ({ id: row.id, type: row.type, payload: JSON.parse(row.payload) }));
}

/** The tenant's order and low-stock event types in order (not the catalog and adjustment events of a set-up). */
export async function outboxTypes(tenant: { id: string }): Promise<string[]> {
  const events = await outboxEvents(tenant, /^(order\.|purchase_order\.|inventory\.low_stock$)/);
  return events.map((event) => event.type);
}

export interface StorageSnapshotRow {
  id: string;
  day: string;
  units: number;
  by_location_type: string;
}

/** A merchant's daily storage snapshots as stored, oldest day first. */
export async function storageSnapshotsOf(
  tenant: { id: string },
  merchantId: string,
): Promise<StorageSnapshotRow[]> {
  const db = await tenantDatabase(tenant.id);
  return (
    await db
      .prepare(
        "select id, day, units, by_location_type from billing_storage_snapshots where tenant_id = ? and merchant_id = ? order by day",
      )
      .bind(tenant.id, merchantId)
      .all<StorageSnapshotRow>()
  ).results;
}
