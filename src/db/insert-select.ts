import { getTableColumns, getTableName, SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

/** What one column of an insert-select takes: an SQL expression, or a value bound as a parameter. */
type Selected = SQL | string | number | null;

/** A value for every column the table requires and any it may omit, keyed by the schema's field names. */
export type SelectedRow<T extends SQLiteTable> = { [K in keyof T["$inferInsert"]]: Selected };

/**
 * `insert into <table> (<columns>) select <values> <rest>`, the column list and the values written out
 * together from one object keyed by the schema's field names: a guarded or bulk write (`insert ...
 * select ... where <guard>`, rows from `json_each`) that drizzle's builder cannot express still names
 * each value's column, and the table's columns are defined once, in its schema.
 */
export function insertSelect<T extends SQLiteTable>(table: T, row: SelectedRow<T>, rest: SQL): SQL {
  const columns = getTableColumns(table);
  const fields = Object.entries(row as Record<string, Selected | undefined>).filter(
    (entry): entry is [string, Selected] => entry[1] !== undefined,
  );
  const names = fields.map(([field]) => {
    const column = columns[field];
    if (!column) throw new Error(`${getTableName(table)} has no field ${field}`);
    return sql.identifier(column.name);
  });
  const values = fields.map(([, value]) => (value instanceof SQL ? value : sql`${value}`));
  return sql`insert into ${sql.identifier(getTableName(table))} (${sql.join(names, sql`, `)})
    select ${sql.join(values, sql`, `)} ${rest}`;
}
