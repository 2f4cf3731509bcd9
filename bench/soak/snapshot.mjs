// The final state, read straight from the local D1 files `wrangler dev` keeps (every database file there, so a
// tenant placed on any shard is read), in the shape checker.mjs takes.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

function databaseFiles(stateDir) {
  const d1 = join(stateDir, "v3", "d1");
  return readdirSync(d1, { recursive: true })
    .filter((file) => String(file).endsWith(".sqlite"))
    .map((file) => join(d1, String(file)));
}

const columnsOf = (db, table) =>
  db
    .prepare(`pragma table_info(${table})`)
    .all()
    .map((c) => c.name);

/** Reads one database's part of the snapshot; a table it lacks contributes nothing. */
function read(db) {
  const tables = new Set(
    db
      .prepare("select name from sqlite_master where type = 'table'")
      .all()
      .map((t) => t.name),
  );
  const all = (table, sql) => (tables.has(table) ? db.prepare(sql).all() : []);
  // Per-lot stock, when the schema has lots: the lot is part of each level's key.
  const lot = (table) => (tables.has(table) && columnsOf(db, table).includes("lot_id") ? "lot_id" : "null");
  const levelLot = lot("stock_levels");
  const ledgerLot = lot("stock_movements");
  const reservationLot = lot("order_reservations");
  const owners = {};
  for (const table of tables) {
    const columns = columnsOf(db, table);
    if (columns.includes("id") && columns.includes("tenant_id")) {
      for (const row of db.prepare(`select id, tenant_id from ${table}`).all())
        owners[row.id] = row.tenant_id;
    }
  }
  for (const { id } of all("tenants", "select id from tenants")) owners[id] = id;
  return {
    stockLevels: all(
      "stock_levels",
      `select tenant_id tenantId, product_id productId, location_id locationId, ${levelLot} lotId,
        on_hand onHand, reserved from stock_levels`,
    ),
    ledgerSums: all(
      "stock_movements",
      `select tenant_id tenantId, product_id productId, location_id locationId, ${ledgerLot} lotId,
        sum(delta) total from stock_movements group by 1, 2, 3, 4`,
    ),
    // What should be reserved: open order reservations, and the allocations of holds still active (an expired
    // hold keeps its stock until the sweep or a reservation releases it, and stays 'active' until then).
    reservedSums: [
      ...all(
        "order_reservations",
        `select tenant_id tenantId, product_id productId, location_id locationId, ${reservationLot} lotId,
          sum(quantity) total from order_reservations group by 1, 2, 3, 4`,
      ),
      ...(tables.has("stock_holds")
        ? db
            .prepare(
              `select a.tenant_id tenantId, a.product_id productId, a.location_id locationId, a.lot_id lotId,
                sum(a.quantity) total from stock_hold_allocations a
                join stock_holds h on h.tenant_id = a.tenant_id and h.id = a.hold_id
                where h.status = 'active' group by 1, 2, 3, 4`,
            )
            .all()
        : []),
    ],
    events: all(
      "outbox_events",
      `select id, tenant_id tenantId, type, payload, created_at createdAt,
        ${columnsOf(db, "outbox_events").includes("seq") ? "seq" : "null"} seq from outbox_events`,
    ).map((event) => ({ ...event, payload: JSON.parse(event.payload) })),
    owners,
    subscriptions: all(
      "webhook_subscriptions",
      "select id, tenant_id tenantId, url, events, active, created_at createdAt from webhook_subscriptions",
    ).map((s) => ({ ...s, events: JSON.parse(s.events), active: Boolean(s.active) })),
    pendingDeliveries: all(
      "webhook_deliveries",
      "select count(*) n from webhook_deliveries where status = 'pending'",
    )[0]?.n,
    // Events not yet fanned out (processed_at null): the sweep hands off again any still unprocessed 3 minutes
    // after its last hand-off, so these may yet reach the receivers. (A schema before processed_at: not handed off.)
    unprocessedEvents: all(
      "outbox_events",
      `select count(*) n from outbox_events where ${
        tables.has("outbox_events") && columnsOf(db, "outbox_events").includes("processed_at")
          ? "processed_at"
          : "dispatched_at"
      } is null`,
    )[0]?.n,
  };
}

export function readSnapshot(stateDir) {
  const snapshot = {
    stockLevels: [],
    ledgerSums: [],
    reservedSums: [],
    events: [],
    owners: {},
    subscriptions: [],
    pendingDeliveries: 0,
    unprocessedEvents: 0,
  };
  for (const file of databaseFiles(stateDir)) {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      // One read transaction: the tables as one commit left them, while the Worker keeps writing.
      db.exec("begin");
      const part = read(db);
      db.exec("commit");
      for (const key of ["stockLevels", "ledgerSums", "reservedSums", "events", "subscriptions"]) {
        snapshot[key].push(...part[key]);
      }
      Object.assign(snapshot.owners, part.owners);
      snapshot.pendingDeliveries += part.pendingDeliveries ?? 0;
      snapshot.unprocessedEvents += part.unprocessedEvents ?? 0;
    } finally {
      db.close();
    }
  }
  return snapshot;
}

/**
 * The deliveries of `pairs` (`{ subscriptionId, eventId }`: events a healthy receiver is missing) as the database
 * holds them now: where each stands (`status`, `attempts`, `nextAttemptAt`) and why its last attempt failed.
 */
export function readDeliveries(stateDir, pairs) {
  const wanted = JSON.stringify(pairs.map(({ subscriptionId, eventId }) => [subscriptionId, eventId]));
  const rows = [];
  for (const file of databaseFiles(stateDir)) {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const tables = db.prepare("select name from sqlite_master where name = 'webhook_deliveries'").all();
      if (tables.length === 0) continue;
      rows.push(
        ...db
          .prepare(
            `select d.tenant_id tenantId, d.subscription_id subscriptionId, d.event_id eventId, d.id deliveryId,
              d.status, d.attempts, d.next_attempt_at nextAttemptAt, d.last_error lastError
            from webhook_deliveries d
            join json_each(?) w on d.subscription_id = json_extract(w.value, '$[0]')
              and d.event_id = json_extract(w.value, '$[1]')`,
          )
          .all(wanted),
      );
    } finally {
      db.close();
    }
  }
  return rows;
}
