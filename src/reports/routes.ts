import { z } from "@hono/zod-openapi";
import { every } from "hono/combine";
import { envelopeOf, ok } from "../http/envelope";
import { AppError } from "../http/errors";
import { defineRoute, guardsFor, jsonContent as json } from "../http/route";
import { createRouter } from "../http/router";
import { API_VERSION } from "../openapi/document";
import { asOfInstant } from "../stock/as-of";
import { type ReportType, reportPath, reportTypes } from "./catalogue";
import { csvDownload, downloadName } from "./download";
import { inventoryValuation, valuationColumns, valuationLines } from "./inventory-valuation";
import { lowStockColumns, lowStockLines, lowStockReport } from "./low-stock";
import { orderSummary, orderSummaryColumns, orderSummaryPage } from "./order-summary";
import {
  InventoryValuationQuery,
  InventoryValuationReport,
  LowStockQuery,
  LowStockReport,
  OrderSummaryQuery,
  type OrderSummaryRecord,
  OrderSummaryReport,
  ReportCatalogue,
  StockMovementsQuery,
  StockMovementsReport,
} from "./schemas";
import { type MovementRow, movementColumns, movementPage, stockMovementsReport } from "./stock-movements";

const csvContent = {
  "text/csv": {
    schema: z.string().openapi({ description: "RFC 4180 CSV with a header row, streamed; UTF-8." }),
  },
};

/** One route per report: its scopes come from the catalogue, so the OpenAPI document shows them. */
function reportRoute<Q extends z.ZodObject, R extends z.ZodType>(report: ReportType, query: Q, result: R) {
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
      responses: {
        200: {
          description: "The report: the envelope (JSON) or a CSV download",
          content: { ...json(envelopeOf(result)).content, ...csvContent },
        },
      },
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
);
const getStockMovementsReportRoute = reportRoute(
  reportTypes.stockMovements,
  StockMovementsQuery,
  StockMovementsReport,
);
const getLowStockReportRoute = reportRoute(reportTypes.lowStock, LowStockQuery, LowStockReport);
const getOrderSummaryReportRoute = reportRoute(
  reportTypes.orderSummary,
  OrderSummaryQuery,
  OrderSummaryReport,
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
  .openapi(getInventoryValuationReportRoute, async (c) => {
    const asked = c.req.valid("query");
    const query = asked.asOf ? { ...asked, asOf: asOfInstant(asked.asOf) } : asked;
    const tenantDb = c.var.tenantDb;
    if (query.format === "csv") {
      return csvDownload(
        c,
        downloadName(reportTypes.inventoryValuation.type),
        valuationColumns,
        (after: string | null) => valuationLines.csvPage(tenantDb, query, after),
      );
    }
    return ok(c, await inventoryValuation(tenantDb, query));
  })
  .openapi(getStockMovementsReportRoute, async (c) => {
    const query = c.req.valid("query");
    const tenantDb = c.var.tenantDb;
    if (query.format === "csv") {
      return csvDownload(
        c,
        downloadName(reportTypes.stockMovements.type, query),
        movementColumns,
        (after: MovementRow | null) => movementPage(tenantDb, query, after),
      );
    }
    return ok(c, await stockMovementsReport(tenantDb, query));
  })
  .openapi(getLowStockReportRoute, async (c) => {
    const query = c.req.valid("query");
    const tenantDb = c.var.tenantDb;
    if (query.format === "csv") {
      return csvDownload(
        c,
        downloadName(reportTypes.lowStock.type),
        lowStockColumns,
        (after: string | null) => lowStockLines.csvPage(tenantDb, query, after),
      );
    }
    return ok(c, await lowStockReport(tenantDb, query));
  })
  .openapi(getOrderSummaryReportRoute, async (c) => {
    const query = c.req.valid("query");
    const tenantDb = c.var.tenantDb;
    if (query.format === "csv") {
      return csvDownload(
        c,
        downloadName(reportTypes.orderSummary.type, query),
        orderSummaryColumns,
        (after: OrderSummaryRecord | null) => orderSummaryPage(tenantDb, query, after),
      );
    }
    return ok(c, await orderSummary(tenantDb, query));
  });

// Any other type is a bad parameter (400), not a missing page; it is a tenant's request like the catalogue.
reportRoutes.get("/reports/:type", every(...guardsFor("tenant")), (c) => {
  throw new AppError("VALIDATION_FAILED", "Unknown report type", {
    errors: [`type: must be one of ${knownTypes.join(", ")} (got ${c.req.param("type").slice(0, 64)})`],
  });
});
