import { keyIn, type MovedTable, movedTables, moveTriggers, upsertRows } from "./tables";

// What a move does to the shards, one bounded step at a time (each well inside a Worker's limits: a few
// statements, at most CHUNK rows). The mover (mover.ts) decides the order and keeps the cursor.

/** Rows per copied chunk and changes per replayed chunk: a bound parameter stays far below D1's 2 MB. */
export const CHUNK = 200;

type Row = Record<string, unknown>;

const rowKey = (table: MovedTable, row: Row) => JSON.stringify(table.primaryKey.map((c) => row[c]));

/** Creates the move triggers (tables.ts) on a shard that lacks them: its first move out creates them. */
export async function installMoveTriggers(database: D1Database) {
  await database.batch(
    movedTables.filter((t) => t.copied).flatMap((t) => moveTriggers(t).map((sql) => database.prepare(sql))),
  );
}

/**
 * Starts capturing the tenant's writes on `source` and clears whatever `target` holds of it (a failed
 * earlier move's leftovers, or the fence it left when it moved away from there).
 */
export async function beginCapture(source: D1Database, target: D1Database, tenantId: string) {
  await target.batch([
    target.prepare("delete from moving_tenants where tenant_id = ?1").bind(tenantId),
    target.prepare("delete from tenant_changes where tenant_id = ?1").bind(tenantId),
  ]);
  await deleteTenantRows(target, tenantId, Number.POSITIVE_INFINITY);
  await installMoveTriggers(source);
  await source.batch([
    source.prepare("delete from tenant_changes where tenant_id = ?1").bind(tenantId),
    source
      .prepare(
        "insert into moving_tenants (tenant_id, stage) values (?1, 'capturing') on conflict (tenant_id) do update set stage = 'capturing'",
      )
      .bind(tenantId),
  ]);
}

export async function setStage(
  source: D1Database,
  tenantId: string,
  stage: "draining" | "fenced" | "deleting",
) {
  await source
    .prepare("update moving_tenants set stage = ?2 where tenant_id = ?1")
    .bind(tenantId, stage)
    .run();
}

/**
 * Copies the next chunk of `table` after `cursor` (a rowid), skipping rows inserted since the capture
 * began: those are replayed from the change log, after their parents. Returns the new cursor and how many
 * rows were read (fewer than CHUNK: the table is done).
 */
export async function copyChunk(
  source: D1Database,
  target: D1Database,
  tenantId: string,
  table: MovedTable,
  cursor: number,
): Promise<{ cursor: number; rows: number }> {
  const { results } = await source
    .prepare(
      `select rowid as "__rowid", * from "${table.name}" t where tenant_id = ?1 and rowid > ?2
        and not exists (select 1 from tenant_changes c where c.tenant_id = ?1 and c.table_name = '${table.name}'
          and c.row_key = json_array(${table.primaryKey.map((c) => `t."${c}"`).join(", ")}) and c.op = 'insert')
        order by rowid limit ${CHUNK}`,
    )
    .bind(tenantId, cursor)
    .all<Row>();
  if (results.length > 0) await target.prepare(upsertRows(table)).bind(JSON.stringify(results)).run();
  const last = results.at(-1);
  return { cursor: last ? Number(last.__rowid) : cursor, rows: results.length };
}

/**
 * Replays the oldest CHUNK logged changes: each changed row is read as it is now on `source` and written
 * to `target` (upserts parents first, then deletes children first, in one batch with foreign keys checked
 * at its end), then those log entries are dropped. Listing the changes before reading the rows keeps any
 * later write in the log. Returns how many entries were replayed (0: the log is empty).
 */
export async function replayChanges(
  source: D1Database,
  target: D1Database,
  tenantId: string,
): Promise<number> {
  const { results: changes } = await source
    .prepare(
      `select id, table_name as tableName, row_key as rowKey from tenant_changes where tenant_id = ?1 order by id limit ${CHUNK}`,
    )
    .bind(tenantId)
    .all<{ id: number; tableName: string; rowKey: string }>();
  const last = changes.at(-1);
  if (!last) return 0;
  const touched = movedTables
    .map((table) => ({
      table,
      keys: [...new Set(changes.filter((c) => c.tableName === table.name).map((c) => c.rowKey))],
    }))
    .filter(({ keys }) => keys.length > 0);
  const current = await source.batch<Row>(
    touched.map(({ table, keys }) =>
      source
        .prepare(`select * from "${table.name}" where tenant_id = ?2 and ${keyIn(table, "?1")}`)
        .bind(`[${keys.join(",")}]`, tenantId),
    ),
  );
  const writes = touched.map(({ table, keys }, i) => {
    const rows = current[i]?.results ?? [];
    const present = new Set(rows.map((row) => rowKey(table, row)));
    const gone = keys.filter((key) => !present.has(JSON.stringify(JSON.parse(key))));
    return { table, rows, gone };
  });
  await target.batch([
    target.prepare("pragma defer_foreign_keys = on"),
    ...writes
      .filter(({ rows }) => rows.length > 0)
      .map(({ table, rows }) => target.prepare(upsertRows(table)).bind(JSON.stringify(rows))),
    ...writes
      .filter(({ gone }) => gone.length > 0)
      .reverse()
      .map(({ table, gone }) =>
        target.prepare(`delete from "${table.name}" where ${keyIn(table, "?1")}`).bind(`[${gone.join(",")}]`),
      ),
  ]);
  await source
    .prepare("delete from tenant_changes where tenant_id = ?1 and id <= ?2")
    .bind(tenantId, last.id)
    .run();
  return changes.length;
}

/** Idempotency claims of the tenant still in flight on `source` (requests that have not answered yet). */
export async function claimsInFlight(source: D1Database, tenantId: string): Promise<number> {
  const row = await source
    .prepare("select count(*) as n from idempotency_keys where tenant_id = ?1 and status = 'in_flight'")
    .bind(tenantId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** What verification compares: every table's row count and every (product, location, lot) ledger sum. */
async function fingerprint(database: D1Database, tenantId: string) {
  // Each count row names its table: counts are read by name, never by their statement's place in the batch
  // (one statement per table: D1 refuses a compound select of that many terms).
  const [ledgerSums, ...tableCounts] = await database.batch<Record<string, unknown>>([
    database
      .prepare(
        `select product_id || '/' || location_id || '/' || lot_id as position, sum(delta) as total
          from stock_movements where tenant_id = ?1 group by product_id, location_id, lot_id`,
      )
      .bind(tenantId),
    ...movedTables.map((table) =>
      database
        .prepare(`select '${table.name}' as name, count(*) as n from "${table.name}" where tenant_id = ?1`)
        .bind(tenantId),
    ),
  ]);
  const counts = new Map(
    tableCounts.flatMap(({ results }) => results).map((row) => [String(row.name), Number(row.n)]),
  );
  const ledger = new Map((ledgerSums?.results ?? []).map((row) => [String(row.position), Number(row.total)]));
  return { counts, ledger };
}

/** Undefined when the copy matches the source; otherwise what differs, for the move's `reason`. */
export async function verifyCopy(source: D1Database, target: D1Database, tenantId: string) {
  const [from, to] = await Promise.all([fingerprint(source, tenantId), fingerprint(target, tenantId)]);
  for (const [table, n] of from.counts) {
    if (to.counts.get(table) !== n)
      return `${table}: ${n} rows on the source, ${to.counts.get(table)} on the copy`;
  }
  const positions = new Set([...from.ledger.keys(), ...to.ledger.keys()]);
  for (const position of positions) {
    if (from.ledger.get(position) !== to.ledger.get(position)) {
      return `ledger of ${position}: ${from.ledger.get(position) ?? 0} on the source, ${to.ledger.get(position) ?? 0} on the copy`;
    }
  }
  return undefined;
}

/**
 * Deletes up to `limit` of the tenant's rows from `database`, children first; returns how many went
 * (fewer than `limit`: nothing is left).
 */
export async function deleteTenantRows(
  database: D1Database,
  tenantId: string,
  limit: number,
): Promise<number> {
  let deleted = 0;
  for (const table of [...movedTables].reverse()) {
    while (deleted < limit) {
      const take = Math.min(CHUNK * 5, limit - deleted);
      const result = await database
        .prepare(
          `delete from "${table.name}" where rowid in (select rowid from "${table.name}" where tenant_id = ?1 limit ${take})`,
        )
        .bind(tenantId)
        .run();
      deleted += result.meta.changes;
      if (result.meta.changes < take) break;
    }
  }
  return deleted;
}

/** Ends capturing on `source` without moving (a failed move): its writes go through as before. */
export async function endCapture(source: D1Database, tenantId: string) {
  await source.batch([
    source.prepare("delete from moving_tenants where tenant_id = ?1").bind(tenantId),
    source.prepare("delete from tenant_changes where tenant_id = ?1").bind(tenantId),
  ]);
}
