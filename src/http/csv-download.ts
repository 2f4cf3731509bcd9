import type { Context } from "hono";
import type { AppEnv } from "../env";
import { log } from "../observability/log";
import { type CsvColumn, type CsvPage, csvStream } from "./csv-stream";

/**
 * A report as a streamed CSV download. The first page is read before the response starts, so a
 * failure there is still an error envelope; later pages are read as the client consumes the body.
 */
export async function csvDownload<Row, Cursor>(
  c: Context<AppEnv>,
  filename: string,
  columns: readonly CsvColumn<Row>[],
  read: (cursor: Cursor | null) => Promise<CsvPage<Row, Cursor>>,
): Promise<Response> {
  const first = await read(null);
  const requestId = c.var.requestId;
  // Headers are gone by now: the download can only be cut short, so the log line is all that explains it.
  const nextPage = (cursor: Cursor) =>
    read(cursor).catch((error: unknown) => {
      log("error", "CSV report aborted mid-stream", {
        requestId,
        path: c.req.path,
        error: error instanceof Error ? error.message : String(error),
      });
      throw error;
    });
  const body = csvStream(columns, first, nextPage);
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
