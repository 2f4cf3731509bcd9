import type { Context } from "hono";
import type { TenantDb } from "../db/client";
import type { AppEnv } from "../env";
import { csvDownload, downloadName } from "../http/csv-download";
import type { CsvColumn, CsvPage } from "../http/csv-stream";
import { ok } from "../http/envelope";

/** What a report serves: its JSON answer, and its CSV download a page at a time. */
export interface ServedReport<Query, Answer, Row, Cursor> {
  type: string;
  json: (tdb: TenantDb, query: Query) => Promise<Answer>;
  columns: readonly CsvColumn<Row>[];
  csvPage: (tdb: TenantDb, query: Query, after: Cursor | null) => Promise<CsvPage<Row, Cursor>>;
  /** The dates a download's name carries, for a report over a date range. */
  range?: (query: Query) => { from: number; to: number };
}

/** `GET /reports/<type>`: the report in the envelope, or with `format=csv` its streamed download. */
export async function serveReport<Query extends { format?: "json" | "csv" }, Answer, Row, Cursor>(
  c: Context<AppEnv>,
  report: ServedReport<Query, Answer, Row, Cursor>,
  query: Query,
) {
  const tdb = c.var.tenantDb;
  if (query.format === "csv") {
    return csvDownload(
      c,
      downloadName(report.type, report.range?.(query)),
      report.columns,
      (after: Cursor | null) => report.csvPage(tdb, query, after),
    );
  }
  return ok(c, await report.json(tdb, query));
}
