import type { CsvPage } from "../http/csv-stream";

/**
 * Which rows of a report to read: a JSON page by offset (`page`/`pageSize`, like every list), or, for a
 * CSV download, the rows after the last one sent (keyset pagination: a page starts where the last one ended
 * instead of counting past every row before it).
 */
export type RowWindow<Row> = { limit: number } & ({ offset: number } | { after: Row | undefined });

/** The CSV streams read D1 this many rows at a time. */
export const CSV_PAGE_SIZE = 500;

export const afterOf = <Row>(window: RowWindow<Row>): Row | undefined =>
  "after" in window ? window.after : undefined;

export const offsetIn = <Row>(window: RowWindow<Row>): number => ("offset" in window ? window.offset : 0);

/** For a report read in order of its rows: a full page means there may be more after its last row. */
export function pageAfterLastRow<Row>(rows: Row[], limit: number): CsvPage<Row, Row> {
  return { rows, next: rows.length < limit ? null : (rows[rows.length - 1] ?? null) };
}
