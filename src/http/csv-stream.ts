import { type CsvCell, csvRecord } from "./csv-record";

/** A CSV column: its header and how to read the cell from a row (of a report download or an export job's part). */
export interface CsvColumn<Row> {
  header: string;
  cell: (row: Row) => CsvCell;
}

/** One page of a download and where the next one starts (null: this was the last). */
export interface CsvPage<Row, Cursor> {
  rows: Row[];
  next: Cursor | null;
}

/**
 * A CSV body that reads its rows page by page: `nextPage(cursor)` returns the rows after `cursor` and
 * the cursor after them. Only one page is ever held in memory, and the next page is not read until the
 * client has taken the previous one (back pressure through `pull`). The first page is read by the
 * caller before the response starts, so a failure there is still an error envelope.
 */
export function csvStream<Row, Cursor>(
  columns: readonly CsvColumn<Row>[],
  firstPage: CsvPage<Row, Cursor>,
  nextPage: (cursor: Cursor) => Promise<CsvPage<Row, Cursor>>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const encodePage = (rows: Row[]) =>
    encoder.encode(rows.map((row) => csvRecord(columns.map((column) => column.cell(row)))).join(""));
  let pending: CsvPage<Row, Cursor> | null = firstPage;
  let next: Cursor | null = null;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvRecord(columns.map((column) => column.header))));
    },
    async pull(controller) {
      // A page may be empty (a range of products with nothing to report) without being the last.
      for (;;) {
        const page: CsvPage<Row, Cursor> | null = pending ?? (next === null ? null : await nextPage(next));
        pending = null;
        if (page === null) {
          controller.close();
          return;
        }
        next = page.next;
        if (page.rows.length > 0) {
          controller.enqueue(encodePage(page.rows));
          return;
        }
      }
    },
  });
}
