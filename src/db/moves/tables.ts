import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as tenantSchema from "../schema/tenant";

/** A tenant table as a move copies it: its columns, its primary key, and whether it is copied at all. */
export interface MovedTable {
  readonly name: string;
  readonly columns: readonly string[];
  readonly primaryKey: readonly string[];
  /** False for a table the shard derives by its own triggers (product_counts): deleted, never copied. */
  readonly copied: boolean;
}

// The move's own bookkeeping stays on its shard; product_counts is kept by triggers on products.
const NOT_TENANT_DATA = new Set(["moving_tenants", "tenant_changes"]);
const DERIVED = new Set(["product_counts"]);

function describe(table: SQLiteTable) {
  const config = getTableConfig(table);
  const primaryKey =
    config.primaryKeys[0]?.columns.map((column) => column.name) ??
    config.columns.filter((column) => column.primary).map((column) => column.name);
  const parents = config.foreignKeys.map((fk) => getTableConfig(fk.reference().foreignTable).name);
  return { name: config.name, columns: config.columns.map((c) => c.name), primaryKey, parents };
}

/**
 * Every tenant table, parents before children (the order that keeps foreign keys whole when inserting;
 * reversed, when deleting). Read from the schema, so a new tenant table moves without a change here.
 */
export const movedTables: readonly MovedTable[] = (() => {
  const tables = (Object.values(tenantSchema) as unknown[])
    .filter((value): value is SQLiteTable => is(value, SQLiteTable))
    .map(describe)
    .filter((table) => !NOT_TENANT_DATA.has(table.name))
    .sort((a, b) => a.name.localeCompare(b.name));
  const ordered: typeof tables = [];
  const place = (table: (typeof tables)[number]) => {
    if (ordered.includes(table)) return;
    for (const parent of table.parents) {
      const found = tables.find((t) => t.name === parent);
      if (found && found !== table) place(found);
    }
    ordered.push(table);
  };
  tables.forEach(place);
  return ordered.map(({ name, columns, primaryKey }) => ({
    name,
    columns,
    primaryKey,
    copied: !DERIVED.has(name),
  }));
})();

const quoted = (name: string) => `"${name}"`;

/** `json_array(<prefix>.pk1, ...)`: how a row's primary key is written in the change log. */
const keyOf = (table: MovedTable, prefix: string) =>
  `json_array(${table.primaryKey.map((c) => `${prefix}.${quoted(c)}`).join(", ")})`;

/** `(pk1, ...) in (rows of ?N, a JSON array of primary keys)`: uses the primary key's index. */
export const keyIn = (table: MovedTable, parameter: string) =>
  `(${table.primaryKey.map(quoted).join(", ")}) in (select ${table.primaryKey
    .map((_, i) => `json_extract(value, '$[${i}]')`)
    .join(", ")} from json_each(${parameter}))`;

/**
 * Insert-or-update of rows given as one JSON array of objects (one bound parameter, whatever the number of
 * rows: D1 binds at most 100 per statement). An update fires the shard's update triggers, never the insert
 * ones, so counters kept by triggers stay exact.
 */
export function upsertRows(table: MovedTable): string {
  const columns = table.columns.map(quoted).join(", ");
  const values = table.columns.map((c) => `json_extract(value, '$."${c}"')`).join(", ");
  const others = table.columns.filter((c) => !table.primaryKey.includes(c));
  const update =
    others.length === 0
      ? "do nothing"
      : `do update set ${others.map((c) => `${quoted(c)} = excluded.${quoted(c)}`).join(", ")}`;
  return `insert into ${quoted(table.name)} (${columns}) select ${values} from json_each(?1) where true
    on conflict (${table.primaryKey.map(quoted).join(", ")}) ${update}`;
}

// Bump when the triggers change: a shard creates the new ones at its next move (`create trigger if not exists`).
const VERSION = "v1";
const STAGES_REFUSING = {
  write: "'fenced', 'deleting'",
  delete: "'fenced'",
  claim: "'draining', 'fenced', 'deleting'",
};

/**
 * The move triggers of one table: while its tenant is in moving_tenants, a write is either recorded in
 * tenant_changes (`capturing`, `draining`) or refused whole with `tenant_fenced` (`fenced`; `deleting` lets
 * only deletes through, the mover's own). A new idempotency claim is refused from `draining` on, so that
 * every request holding a claim has finished before the fence.
 */
export function moveTriggers(table: MovedTable): string[] {
  const operations = [
    { op: "insert", row: "new" },
    { op: "update", row: "new" },
    { op: "delete", row: "old" },
  ] as const;
  return operations.map(({ op, row }) => {
    const refusing =
      op === "delete"
        ? STAGES_REFUSING.delete
        : op === "insert" && table.name === "idempotency_keys"
          ? STAGES_REFUSING.claim
          : STAGES_REFUSING.write;
    const moving = `from moving_tenants where tenant_id = ${row}.tenant_id`;
    return `create trigger if not exists ${quoted(`${table.name}__move_${VERSION}_${op}`)}
      before ${op} on ${quoted(table.name)}
      when exists (select 1 ${moving})
      begin
        select raise(abort, 'tenant_fenced') ${moving} and stage in (${refusing});
        insert into tenant_changes (tenant_id, table_name, row_key, op)
          select ${row}.tenant_id, '${table.name}', ${keyOf(table, row)}, '${op}' ${moving}
          and stage in ('capturing', 'draining');
      end`;
  });
}
