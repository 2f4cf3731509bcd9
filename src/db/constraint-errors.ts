import { is } from "drizzle-orm";
import { getTableConfig, SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { conflict } from "../http/errors";
import * as platformSchema from "./schema/platform";
import * as tenantSchema from "./schema/tenant";

// SQLite states what a rolled-back statement broke in a fixed form, which D1 passes on as the message of its
// error or of the error's cause: "<what>: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_<KIND>)". <what> is
// "CHECK constraint failed: <name>", "UNIQUE constraint failed: <table>.<column>, ..." (a unique index, named
// by its columns), "FOREIGN KEY constraint failed" (unnamed: answered as `foreign_key`) or a trigger's RAISE
// text (the move fence's `tenant_fenced`). This file reads that form and gives each its name; callers answer
// by name.

const CONSTRAINT_ERROR = /^(?:D1_ERROR: )?(.*): SQLITE_CONSTRAINT \(extended: SQLITE_CONSTRAINT_(\w+)\)$/s;

/**
 * The trigger refusals the schema raises (src/db/moves/tables.ts; migration 0010 for non-sellable stock, 0012 for
 * barcodes), and SQLite's one name for any foreign key.
 */
const RAISED = ["tenant_fenced", "foreign_key", "location_not_sellable", "barcode_taken"];

const tables = ([...Object.values(tenantSchema), ...Object.values(platformSchema)] as unknown[]).filter(
  (value): value is SQLiteTable => is(value, SQLiteTable),
);

/** Each unique index by the columns SQLite names it by ("products.tenant_id, products.sku"). */
const uniqueIndexes = new Map(
  tables.flatMap((table) => {
    const { name: tableName, indexes } = getTableConfig(table);
    return indexes
      .filter((index) => index.config.unique)
      .map((index) => [
        index.config.columns
          .map((column) => `${tableName}.${is(column, SQLiteColumn) ? column.name : "?"}`)
          .join(", "),
        index.config.name,
      ]);
  }),
);

/** Every constraint a write can be refused by, by name. */
const constraintNames = new Set([
  ...tables.flatMap((table) => getTableConfig(table).checks.map((check) => check.name)),
  ...uniqueIndexes.values(),
  ...RAISED,
]);

/** The name of the constraint whose violation rolled back a failed statement or batch; undefined otherwise. */
export function brokenConstraint(error: unknown): string | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const [, what = "", kind] = CONSTRAINT_ERROR.exec(e.message) ?? [];
    if (kind === "CHECK") return what.replace(/^CHECK constraint failed: /, "");
    if (kind === "UNIQUE") return uniqueIndexes.get(what.replace(/^UNIQUE constraint failed: /, ""));
    if (kind === "TRIGGER") return what;
    if (kind === "FOREIGNKEY") return "foreign_key";
  }
  return undefined;
}

/**
 * The one way a failed write is answered: `answers`' answer for the constraint it broke, by the constraint's
 * name (a lost race or a refused value, not a bug); any other failure is thrown as it was.
 */
export function answerFor<T>(error: unknown, answers: Readonly<Record<string, () => T>>): T {
  for (const name of Object.keys(answers)) {
    if (!constraintNames.has(name)) throw new Error(`No constraint is named ${name}`);
  }
  const answer = answers[brokenConstraint(error) ?? ""];
  if (!answer) throw error;
  return answer();
}

/** A failed write's 409 for the unique index it clashed with (`uniques`: index name -> message). */
export function asConflict(error: unknown, uniques: Readonly<Record<string, string>>): never {
  throw answerFor(
    error,
    Object.fromEntries(Object.entries(uniques).map(([name, message]) => [name, () => conflict(message)])),
  );
}
