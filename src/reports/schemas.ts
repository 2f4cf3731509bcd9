import { z } from "@hono/zod-openapi";
import { scopes } from "../auth/scopes";
import { pagedOf, pageQuery } from "../http/pagination";
import { ExactMoney, ExactMoneyText } from "../money";
import { ReturnDisposition } from "../record-schemas/return";
import { checkRange, dateRangeQuery } from "../report-rows/date-range";
import { MovementRecord } from "../stock/schemas";

const format = z
  .enum(["json", "csv"], { error: "must be json or csv" })
  .default("json")
  .openapi({
    param: { name: "format", in: "query" },
    description:
      "`json` (the envelope, paged) or `csv` (a streamed download of every row, with a header row).",
  });

const id = (name: string, description: string) =>
  z
    .uuid("must be a UUID")
    .optional()
    .openapi({ param: { name, in: "query" }, description });

const text = (name: string, description: string) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .optional()
    .openapi({ param: { name, in: "query" }, description });

const common = pageQuery.extend({ format });

export const LowStockQuery = common.extend({
  warehouseId: id("warehouseId", "Only this warehouse."),
  category: text("category", "Only products in this category (exact match)."),
});
export type LowStockQuery = z.infer<typeof LowStockQuery>;

export const InventoryValuationQuery = LowStockQuery.extend({
  asOf: z.iso
    .datetime({ offset: true, message: "must be an ISO 8601 timestamp" })
    .optional()
    .openapi({
      param: { name: "asOf", in: "query" },
      description:
        "Value the stock on hand at this past instant (from the ledger) at each product's current unit cost. " +
        "Reservations are not recorded for past instants: reserved is 0.",
    }),
});
export type InventoryValuationQuery = z.infer<typeof InventoryValuationQuery>;

export const StockMovementsQuery = common
  .extend(dateRangeQuery.shape)
  .extend({
    productId: id("productId", "Only this product."),
    locationId: id("locationId", "Only this location."),
    warehouseId: id("warehouseId", "Only this warehouse."),
    reason: text("reason", "Only movements with this reason (exact match), e.g. `received`."),
  })
  .superRefine(checkRange);
export type StockMovementsQuery = z.infer<typeof StockMovementsQuery>;

export const OrderSummaryQuery = common
  .extend(dateRangeQuery.shape)
  .extend({
    type: z
      .enum(["sales", "purchase"], { error: "must be sales or purchase" })
      .optional()
      .openapi({ param: { name: "type", in: "query" }, description: "Only sales or only purchase orders." }),
  })
  .superRefine(checkRange);
export type OrderSummaryQuery = z.infer<typeof OrderSummaryQuery>;

// What a valuation line and a low-stock line say about one product in one warehouse (its stock position).
const productInWarehouse = {
  productId: z.uuid(),
  sku: z.string(),
  productName: z.string(),
  category: z.string().nullable(),
  warehouseId: z.uuid(),
  warehouseCode: z.string(),
  onHand: z.number().int(),
};
const expired = z.number().int().openapi({
  description:
    "Units of expired lots not held by an order, at sellable locations: on hand, but never available.",
});
const nonSellable = z.number().int().openapi({
  description: "Units at non-sellable locations (quarantine): on hand, but never available.",
});

export const ValuationRecord = z
  .object({
    ...productInWarehouse,
    expired,
    nonSellable,
    unitCost: z.number().nullable().openapi({
      description: "Null when the product has no cost; its values are then null.",
      example: 1234.5,
    }),
    value: ExactMoney.nullable().openapi({
      type: ["number", "null"],
      description: "All on hand x unit cost.",
    }),
    valueExact: ExactMoneyText.nullable(),
    sellableValue: ExactMoney.nullable().openapi({
      type: ["number", "null"],
      description: "On hand at sellable locations x unit cost.",
    }),
    sellableValueExact: ExactMoneyText.nullable(),
    nonSellableValue: ExactMoney.nullable().openapi({
      type: ["number", "null"],
      description: "On hand at non-sellable locations (quarantine) x unit cost.",
    }),
    nonSellableValueExact: ExactMoneyText.nullable(),
  })
  .openapi("InventoryValuationRow");

// A total's value of everything on hand and its split between sellable and non-sellable locations.
const totalValues = {
  value: ExactMoney,
  valueExact: ExactMoneyText,
  sellableValue: ExactMoney,
  sellableValueExact: ExactMoneyText,
  nonSellableValue: ExactMoney,
  nonSellableValueExact: ExactMoneyText,
};

export const InventoryValuationReport = pagedOf(ValuationRecord)
  .extend({
    asOf: z
      .string()
      .nullable()
      .openapi({ format: "date-time", description: "The instant valued; null: now." }),
    basis: z.string().openapi({
      description: "How the report was valued, in words (past stock is valued at current unit costs).",
    }),
    totals: z.object({
      onHand: z.number().int(),
      reserved: z.number().int().openapi({ description: "Held by open sales orders." }),
      expired,
      nonSellable,
      available: z.number().int().openapi({
        description:
          "onHand - reserved - expired - nonSellable: only unexpired stock at sellable locations is available.",
      }),
      ...totalValues,
      byWarehouse: z.array(
        z.object({
          warehouseId: z.uuid(),
          warehouseCode: z.string(),
          onHand: z.number().int(),
          reserved: z.number().int(),
          expired: z.number().int(),
          nonSellable: z.number().int(),
          available: z.number().int(),
          ...totalValues,
        }),
      ),
    }),
  })
  .openapi("InventoryValuationReport");

export const LowStockRecord = z
  .object({
    ...productInWarehouse,
    reserved: z.number().int(),
    expired,
    nonSellable,
    available: z.number().int().openapi({
      description:
        "onHand - reserved - expired - nonSellable: only unexpired stock at sellable locations counts as available.",
    }),
    reorderPoint: z.number().int(),
    shortfall: z.number().int().openapi({ description: "reorderPoint - available (0 when exactly at it)." }),
  })
  .openapi("LowStockRow");

export const LowStockReport = pagedOf(LowStockRecord).openapi("LowStockReport");

// A report line shows a ledger row as the inventory API does, with names beside the ids.
const { delta, onHandAfter, reason, referenceType, referenceId, notes, actorId } = MovementRecord.shape;

export const StockMovementRecord = z
  .object({
    id: z.uuid(),
    createdAt: z.string().openapi({ format: "date-time" }),
    productId: z.string(),
    sku: z.string().nullable(),
    productName: z.string().nullable(),
    warehouseId: z.string(),
    warehouseCode: z.string().nullable(),
    locationId: z.string(),
    locationCode: z.string().nullable(),
    delta,
    onHandAfter,
    reason,
    referenceType,
    referenceId,
    notes,
    actorType: z.string(),
    actorId,
  })
  .openapi("StockMovementRow");

export const StockMovementsReport = pagedOf(StockMovementRecord)
  .extend({
    totals: z.object({
      movements: z.number().int(),
      netDelta: z.number().int(),
      byDay: z
        .array(
          z.object({
            day: z.string().openapi({ format: "date", description: "A UTC day of the range." }),
            movements: z.number().int(),
            unitsIn: z.number().int().openapi({ description: "Sum of the day's positive deltas." }),
            unitsOut: z
              .number()
              .int()
              .openapi({ description: "Sum of the day's negative deltas, as a positive number." }),
            netDelta: z.number().int(),
          }),
        )
        .openapi({ description: "One entry per UTC day with movements, oldest first (for charts)." }),
    }),
  })
  .openapi("StockMovementsReport");

const OrderType = z.enum(["sales", "purchase"]);

export const OrderSummaryRecord = z
  .object({
    day: z.string().openapi({ format: "date", description: "UTC day the orders were created." }),
    type: OrderType,
    status: z.string().openapi({ description: "The orders' current status." }),
    orders: z.number().int(),
    value: ExactMoney.openapi({ description: "Sum of the lines' quantity x unit price." }),
    valueExact: ExactMoneyText,
  })
  .openapi("OrderSummaryRow");
export type OrderSummaryRecord = z.infer<typeof OrderSummaryRecord>;

export const OrderSummaryReport = pagedOf(OrderSummaryRecord)
  .extend({
    totals: z.object({
      orders: z.number().int(),
      byStatus: z.array(
        z.object({
          type: OrderType,
          status: z.string(),
          orders: z.number().int(),
          value: ExactMoney,
          valueExact: ExactMoneyText,
        }),
      ),
    }),
  })
  .openapi("OrderSummaryReport");

export const ReturnsQuery = common.extend(dateRangeQuery.shape).superRefine(checkRange);
export type ReturnsQuery = z.infer<typeof ReturnsQuery>;

export const ReturnsRecord = z
  .object({
    reason: z.string().openapi({ description: "The return line's reason, exactly as given." }),
    disposition: ReturnDisposition,
    units: z.number().int().openapi({ description: "Units received back with this reason and disposition." }),
    returns: z.number().int().openapi({ description: "How many returns they came on." }),
  })
  .openapi("ReturnsRow");
export type ReturnsRecord = z.infer<typeof ReturnsRecord>;

export const ReturnsReport = pagedOf(ReturnsRecord)
  .extend({
    totals: z.object({
      units: z.number().int(),
      byReason: z.array(z.object({ reason: z.string(), units: z.number().int() })),
      byDisposition: z.array(z.object({ disposition: ReturnDisposition, units: z.number().int() })),
    }),
  })
  .openapi("ReturnsReport");

export const ReportType = z
  .object({
    type: z.string().openapi({ example: "stock-movements" }),
    title: z.string(),
    description: z.string(),
    scopes: z.array(z.enum(scopes)).openapi({ description: "Every one of these scopes is needed." }),
    formats: z.array(z.enum(["json", "csv"])),
    path: z.string().openapi({ example: "/api/v1/reports/stock-movements" }),
    parameters: z.array(z.object({ name: z.string(), required: z.boolean(), description: z.string() })),
  })
  .openapi("ReportType");

export const ReportCatalogue = z.object({ items: z.array(ReportType) }).openapi("ReportCatalogue");

export const DashboardQuery = dateRangeQuery
  .extend({
    lowStockLimit: z.coerce
      .number({ error: "must be an integer between 1 and 100" })
      .int("must be an integer between 1 and 100")
      .min(1, "must be an integer between 1 and 100")
      .max(100, "must be an integer between 1 and 100")
      .default(10)
      .openapi({
        param: { name: "lowStockLimit", in: "query" },
        description: "How many low-stock lines to give (the first by SKU, then warehouse code).",
        example: 10,
      }),
  })
  .superRefine(checkRange);
export type DashboardQuery = z.infer<typeof DashboardQuery>;

export const Dashboard = z
  .object({
    stock: InventoryValuationReport.shape.totals.openapi({
      description: "The stock on hand now: the inventory valuation report's totals.",
    }),
    lowStock: z
      .object({
        items: z.array(LowStockRecord),
        totalCount: z.number().int().openapi({ description: "Every line of the low-stock report." }),
      })
      .openapi({ description: "The low-stock report's first `lowStockLimit` lines and how many there are." }),
    movements: StockMovementsReport.shape.totals.openapi({
      description: "The stock movements report's totals over the range (per UTC day for a chart).",
    }),
    orders: OrderSummaryReport.shape.totals.openapi({
      description:
        "The order summary report's totals over the range: orders created then, by current status.",
    }),
  })
  .openapi("Dashboard");
