import { runBatch, type Statement } from "../db/batch";
import type { TenantDb } from "../db/client";
import { badStrings } from "../http/control-characters";
import { type CsvColumnTypes, csvObject, readCsv } from "../http/csv-parse";
import { recordsOf } from "../http/record-scanner";
import type { RowError } from "../record-schemas/job";
import type { ImportChunk, ImportPlan } from "./import-plan";

// A chunk's bytes as rows: each record a JSON object (an NDJSON line, or a CSV record under the header's column
// names, typed like the CSV product import), or why it is not one. Blank lines are not rows.

export type ParsedRow = { line: number; value: Record<string, unknown> } | { line: number; errors: string[] };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function parseRecord(
  text: string,
  line: number,
  plan: ImportPlan,
  types: CsvColumnTypes,
): { value: Record<string, unknown> } | { errors: string[] } | null {
  if (plan.columns) {
    // The scanner found one record here: the reader reads the same one (or none, for a lone `""`).
    const [record] = readCsv(text, line);
    if (!record) return null;
    const read = csvObject(plan.columns, record, types);
    return "problem" in read ? { errors: [`row: ${read.problem}`] } : read;
  }
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? { value } : { errors: ["row: must be a JSON object"] };
  } catch {
    return { errors: ["row: malformed JSON"] };
  }
}

/** The rows of `bytes`, the chunk's part of the file; `types`: how the CSV's cells are typed. */
export function parseRows(
  bytes: Uint8Array,
  plan: ImportPlan,
  chunk: ImportChunk,
  types: CsvColumnTypes,
): ParsedRow[] {
  return recordsOf(bytes, plan.format, chunk.line).flatMap(({ text, line }): ParsedRow[] => {
    if (text === null) return [{ line, errors: ["row: is not valid UTF-8"] }];
    if (text.trim() === "") return [];
    const parsed = parseRecord(text, line, plan, types);
    if (parsed === null) return [];
    if ("errors" in parsed) return [{ line, errors: parsed.errors }];
    // The same characters a request body may not hold (src/http/control-characters.ts).
    const forbidden = badStrings(parsed.value);
    return forbidden.length ? [{ line, errors: forbidden }] : [{ line, value: parsed.value }];
  });
}

/**
 * Writes a chunk's rows: each parsed row made an item for the writer (or refused with why), the items written in
 * ONE batch with `commit(errors)` (the job's record of the chunk, given every failing row with its line, in line
 * order). `write` passes the failures it finds, by index into the items, to the statements it commits with them.
 */
export async function writeRows<T>(
  tdb: TenantDb,
  rows: readonly ParsedRow[],
  itemOf: (value: Record<string, unknown>) => { item: T } | { errors: string[] },
  write: (
    items: T[],
    commitWith: (failures: ReadonlyMap<number, string[]>) => Statement[],
  ) => Promise<unknown>,
  commit: (errors: RowError[]) => Statement[],
): Promise<void> {
  const refused: RowError[] = [];
  const good: { line: number; item: T }[] = [];
  for (const row of rows) {
    const made = "errors" in row ? row : itemOf(row.value);
    if ("errors" in made) refused.push({ line: row.line, errors: made.errors });
    else good.push({ line: row.line, item: made.item });
  }
  const commitWith = (failures: ReadonlyMap<number, string[]>) =>
    commit(
      [...refused, ...[...failures].map(([i, errors]) => ({ line: good[i]?.line as number, errors }))].sort(
        (a, b) => a.line - b.line,
      ),
    );
  if (good.length === 0) await runBatch(tdb, { done: commitWith(new Map()) });
  else
    await write(
      good.map((g) => g.item),
      commitWith,
    );
}
