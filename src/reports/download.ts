import type { Context } from "hono";
import type { AppEnv } from "../env";
import { type CsvColumn, csvStream } from "./csv";
import { CSV_PAGE_SIZE, type RowWindow } from "./window";

/**
 * A report as a streamed CSV download. The first page is read before the response starts, so a
 * failure there is still an error envelope; later pages are read as the client consumes the body.
 */
export async function csvDownload<Row>(
  c: Context<AppEnv>,
  filename: string,
  columns: readonly CsvColumn<Row>[],
  read: (window: RowWindow<Row>) => Promise<Row[]>,
): Promise<Response> {
  const first = await read({ after: undefined, limit: CSV_PAGE_SIZE });
  const requestId = c.var.requestId;
  // Headers are gone by now: the download can only be cut short, so the log line is all that explains it.
  const nextPage = (after: Row) =>
    read({ after, limit: CSV_PAGE_SIZE }).catch((error: unknown) => {
      console.error(
        JSON.stringify({
          level: "error",
          msg: "CSV report aborted mid-stream",
          requestId,
          path: c.req.path,
          error: error instanceof Error ? error.message : String(error),
        }),
      );
      throw error;
    });
  const body = csvStream(columns, CSV_PAGE_SIZE, first, nextPage);
  return c.body(body, 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${filename}.csv"`,
    "Cache-Control": "no-store",
  });
}

/** `stock-movements-2026-11-01-2026-11-30`: the report and its (inclusive) dates, safe in a header. */
export function downloadName(type: string, range?: { from: number; to: number }): string {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  if (!range) return `${type}-${day(Date.now())}`;
  return `${type}-${day(range.from)}-${day(range.to - 1)}`;
}
