import { z } from "@hono/zod-openapi";
import { every } from "hono/combine";
import type { Scope } from "../auth/scopes";
import { API_VERSION } from "../http/api-version";
import type { CsvColumn } from "../http/csv-stream";
import { envelopeOf, ok } from "../http/envelope";
import { AppError } from "../http/errors";
import { createRouter } from "../http/router";
import { defineRoute, guardsFor, jsonContent as json } from "../pipeline/route";
import { asOfInstant } from "../stock";
import { type ReportType, reportPath, reportTypes } from "./catalogue";
import { dashboard } from "./dashboard";
import { servedInventoryValuation } from "./inventory-valuation";
import { servedLowStock } from "./low-stock";
import { servedOrderSummary } from "./order-summary";
import { servedReturns } from "./returns";
import {
  Dashboard,
  DashboardQuery,
  InventoryValuationQuery,
  InventoryValuationReport,
  LowStockQuery,
  LowStockReport,
  OrderSummaryQuery,
  OrderSummaryReport,
  ReportCatalogue,
  ReturnsQuery,
  ReturnsReport,
  StockMovementsQuery,
  StockMovementsReport,
} from "./schemas";
import { serveReport } from "./serve-report";
import { servedStockMovements } from "./stock-movements";

/**
 * The two answers of a report, as `format` chooses them (serve-report.ts): the envelope, or with `format=csv` the
 * download, its columns those the report writes (its `columns`, so the document cannot list others).
 */
function reportAnswers(result: z.ZodType, columns: readonly CsvColumn<never>[]) {
  const header = columns.map((column) => column.header);
  return {
    description:
      "`format=json` (default): the report in the envelope. `format=csv`: every row as a CSV download.",
    headers: {
      "Content-Disposition": {
        description: "With `format=csv` only: `attachment` and the download's name (`<report>-<dates>.csv`).",
        schema: { type: "string" as const, example: 'attachment; filename="low-stock-2026-11-26.csv"' },
      },
    },
    content: {
      ...json(envelopeOf(result)).content,
      "text/csv": {
        schema: z.string().openapi({
          description: `RFC 4180 CSV, UTF-8, streamed: a header row (${header.join(", ")}), then one record a row.`,
          example: `${header.join(",")}\r\n`,
        }),
      },
    },
  };
}

/** One route per report: its scopes come from the catalogue, so the OpenAPI document shows them. */
function reportRoute<Q extends z.ZodObject, R extends z.ZodType>(
  report: ReportType,
  query: Q,
  result: R,
  served: { columns: readonly CsvColumn<never>[] },
) {
  return defineRoute(
    { scope: report.scopes },
    {
      method: "get",
      path: reportPath(report.type),
      // inventory-valuation -> getInventoryValuationReport
      operationId: `get${report.type.replace(/(^|-)(\w)/g, (_, _dash, letter: string) => letter.toUpperCase())}Report`,
      tags: ["Reports"],
      summary: report.title,
      description: report.description,
      request: { query },
      responses: { 200: reportAnswers(result, served.columns) },
    },
  );
}

const listReportTypesRoute = defineRoute("tenant", {
  method: "get",
  path: "/reports",
  operationId: "listReportTypes",
  tags: ["Reports"],
  summary: "The report types, with their parameters and the scopes each needs",
  responses: { 200: { description: "The catalogue", ...json(envelopeOf(ReportCatalogue)) } },
});

const getInventoryValuationReportRoute = reportRoute(
  reportTypes.inventoryValuation,
  InventoryValuationQuery,
  InventoryValuationReport,
  servedInventoryValuation,
);
const getStockMovementsReportRoute = reportRoute(
  reportTypes.stockMovements,
  StockMovementsQuery,
  StockMovementsReport,
  servedStockMovements,
);
const getLowStockReportRoute = reportRoute(
  reportTypes.lowStock,
  LowStockQuery,
  LowStockReport,
  servedLowStock,
);
const getOrderSummaryReportRoute = reportRoute(
  reportTypes.orderSummary,
  OrderSummaryQuery,
  OrderSummaryReport,
  servedOrderSummary,
);

const getReturnsReportRoute = reportRoute(reportTypes.returns, ReturnsQuery, ReturnsReport, servedReturns);

// The dashboard's scopes are its four reports' (every member role holds them).
const dashboardScopes = [
  ...new Set([
    ...reportTypes.inventoryValuation.scopes,
    ...reportTypes.lowStock.scopes,
    ...reportTypes.stockMovements.scopes,
    ...reportTypes.orderSummary.scopes,
  ]),
] as [Scope, ...Scope[]];

const getDashboardRoute = defineRoute(
  { scope: dashboardScopes },
  {
    method: "get",
    path: "/dashboard",
    operationId: "getDashboard",
    tags: ["Reports"],
    summary: "The dashboard: stock totals, low stock, movements per day and orders by status in one answer",
    description:
      "The totals of the inventory valuation (stock now), the first `lowStockLimit` lines of the low-stock report, " +
      "and the totals of the stock movements and order summary reports over `from`..`to`: what the four reports " +
      "give a dashboard, in one request. A member acting for a merchant sees only its goods, as in each report.",
    request: { query: DashboardQuery },
    responses: { 200: { description: "The dashboard", ...json(envelopeOf(Dashboard)) } },
  },
);

const knownTypes = Object.values(reportTypes).map((report) => report.type);

interface Parameter {
  name: string;
  required: boolean;
  description: string;
}

interface QueryParameter extends Partial<Parameter> {
  name: string;
  in: string;
  schema?: { type?: string; minimum?: number; maximum?: number; default?: unknown; enum?: unknown[] };
}

/** A parameter's own description, or what its schema says (`page`: "integer >= 1, default 1"). */
function describe({ description, schema = {} }: QueryParameter): string {
  if (description) return description;
  const bounds =
    schema.maximum === undefined ? `>= ${schema.minimum}` : `${schema.minimum}..${schema.maximum}`;
  return (
    [schema.type, schema.minimum === undefined ? undefined : bounds].filter(Boolean).join(" ") +
    (schema.default === undefined ? "" : `, default ${schema.default}`)
  );
}

let catalogue: z.infer<typeof ReportCatalogue>["items"] | undefined;

/** The catalogue, generated once per isolate from the report routes' own OpenAPI description. */
function reportCatalogue(): z.infer<typeof ReportCatalogue>["items"] {
  if (catalogue) return catalogue;
  const { paths = {} } = reportRoutes.getOpenAPI31Document({
    openapi: "3.1.0",
    info: { title: "Reports", version: API_VERSION },
  });
  catalogue = Object.values(reportTypes).map((report) => {
    const parameters = (paths[reportPath(report.type)]?.get?.parameters ?? []) as QueryParameter[];
    return {
      ...report,
      scopes: [...report.scopes],
      formats: ["json" as const, "csv" as const],
      path: `/api/v1${reportPath(report.type)}`,
      parameters: parameters
        .filter((parameter) => parameter.in === "query")
        .map((parameter) => ({
          name: parameter.name,
          required: parameter.required ?? false,
          description: describe(parameter),
        })),
    };
  });
  return catalogue;
}

export const reportRoutes = createRouter()
  .openapi(listReportTypesRoute, (c) => ok(c, { items: reportCatalogue() }))
  .openapi(getInventoryValuationReportRoute, (c) => {
    const query = c.req.valid("query");
    const at = query.asOf ? { ...query, asOf: asOfInstant(query.asOf) } : query;
    return serveReport(c, servedInventoryValuation, at);
  })
  .openapi(getStockMovementsReportRoute, (c) => serveReport(c, servedStockMovements, c.req.valid("query")))
  .openapi(getLowStockReportRoute, (c) => serveReport(c, servedLowStock, c.req.valid("query")))
  .openapi(getOrderSummaryReportRoute, (c) => serveReport(c, servedOrderSummary, c.req.valid("query")))
  .openapi(getReturnsReportRoute, (c) => serveReport(c, servedReturns, c.req.valid("query")))
  .openapi(getDashboardRoute, async (c) => ok(c, await dashboard(c.var.tenantDb, c.req.valid("query"))));

// Any other type is a bad parameter (400), not a missing page; it is a tenant's request like the catalogue.
reportRoutes.get("/reports/:type", every(...guardsFor("tenant")), (c) => {
  throw new AppError("VALIDATION_FAILED", "Unknown report type", {
    errors: [`type: must be one of ${knownTypes.join(", ")} (got ${c.req.param("type").slice(0, 64)})`],
  });
});
