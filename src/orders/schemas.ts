import { z } from "@hono/zod-openapi";
import { MAX_ON_HAND } from "../db/schema/tenant";
import { nullableRef } from "../http/nullable";
import { pageQuery, sortQuery } from "../http/pagination";
import { ExactMoney, ExactMoneyText, MAX_ORDER_TOTAL, Money } from "../money";
import { orderStatuses } from "../order-core/state-machine";
import { amountFields, oneAmount } from "../stock/packs";
import {
  LotNumber,
  MAX_SERIALS_PER_REQUEST,
  SerialNumbers,
  trackedFields,
  withinSerialsPerRequest,
} from "../stock/schemas";

const MAX_QUANTITY = 1_000_000_000;
const MAX_LINES = 500;

const Quantity = z
  .number({ error: "must be a positive integer" })
  .int("must be a positive integer")
  .min(1, "must be a positive integer")
  .max(MAX_QUANTITY, `must be at most ${MAX_QUANTITY}`)
  .openapi({ example: 3 });

const Id = z.uuid("must be a UUID");
const Text = (max: number) =>
  z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);
const Lines = <T extends z.ZodType>(line: T) =>
  z
    .array(line, { error: "must be an array of lines" })
    .min(1, "must have at least one line")
    .max(MAX_LINES, `must have at most ${MAX_LINES} lines`);
// Bounded so that every total and report sum is exact (docs/decisions/security.md).
const PricedLines = <T extends z.ZodType>(line: T) =>
  Lines(line).openapi({
    description: `The order total (sum of quantity x unit amount) is at most ${MAX_ORDER_TOTAL}; a larger one is a 400.`,
  });

export const OrderStatus = z.enum(orderStatuses).openapi("OrderStatus");
export const OrderType = z.enum(["sales", "purchase"]).openapi("OrderType");

export const ShippingAddress = z
  .strictObject({
    street: Text(200),
    city: Text(100),
    zip: Text(20),
    state: Text(100).optional(),
    country: Text(100).optional(),
  })
  .openapi("ShippingAddress");

export const CreateSalesOrderBody = z
  .strictObject({
    customerId: Id,
    warehouseId: Id.optional().openapi({ description: "Reserve only from this warehouse's locations." }),
    lines: PricedLines(
      z
        .strictObject({
          productId: Id.openapi({
            description: "A stocked product or a kit (which reserves its components).",
          }),
          ...amountFields(Quantity),
          price: Money,
          lotNumber: LotNumber.optional().openapi({
            description:
              "Reserve only from this lot (lot-tracked products); otherwise lots are allocated first-expiring-first-out.",
          }),
          holdId: Id.optional().openapi({
            description:
              "An active hold of this product (POST /inventory/holds) that becomes this line's reservation: " +
              "the line's quantity at most the hold's; the rest of the hold is released.",
          }),
        })
        .superRefine((line, ctx) => oneAmount(line, ctx)),
    ),
    shippingAddress: ShippingAddress,
    notes: Text(1000).optional(),
  })
  .superRefine((order, ctx) => {
    const seen = new Set<string>();
    order.lines.forEach((line, i) => {
      if (!line.holdId) return;
      if (seen.has(line.holdId)) {
        ctx.addIssue({
          code: "custom",
          message: "names a hold another line already uses",
          path: ["lines", i, "holdId"],
        });
      }
      seen.add(line.holdId);
    });
  })
  .openapi("CreateSalesOrderRequest");
export type CreateSalesOrderBody = z.infer<typeof CreateSalesOrderBody>;

export const CreatePurchaseOrderBody = z
  .strictObject({
    supplier: Text(200),
    warehouseId: Id,
    lines: PricedLines(
      z
        .strictObject({ productId: Id, ...amountFields(Quantity), cost: Money })
        .superRefine((line, ctx) => oneAmount(line, ctx)),
    ),
    expectedAt: z.iso.datetime({ error: "must be an ISO 8601 UTC timestamp" }).optional(),
    notes: Text(1000).optional(),
  })
  .openapi("CreatePurchaseOrderRequest");
export type CreatePurchaseOrderBody = z.infer<typeof CreatePurchaseOrderBody>;

export const UpdateStatusBody = z
  .strictObject({
    status: OrderStatus,
    trackingNumber: Text(100).optional().openapi({ description: "Stored when sent with `shipped`." }),
    lines: z
      .array(z.strictObject({ lineId: Id, serialNumbers: SerialNumbers }))
      .max(MAX_LINES)
      .refine(withinSerialsPerRequest, {
        message: `must name at most ${MAX_SERIALS_PER_REQUEST} serial numbers in all`,
      })
      .optional()
      .openapi({
        description: `With \`shipped\`: the serial numbers picked for each line of a serial-tracked product (at most ${MAX_SERIALS_PER_REQUEST} in all; an order holds no more serial-tracked units).`,
      }),
  })
  .openapi("UpdateOrderStatusRequest");
export type UpdateStatusBody = z.infer<typeof UpdateStatusBody>;

export const ReceiveBody = z
  .strictObject({
    lines: Lines(
      z
        .strictObject({ lineId: Id, ...amountFields(Quantity), locationId: Id, ...trackedFields })
        .superRefine((line, ctx) => oneAmount(line, ctx)),
    )
      .refine(withinSerialsPerRequest, {
        message: `must name at most ${MAX_SERIALS_PER_REQUEST} serial numbers in all: receive the rest in another receipt`,
      })
      .openapi({
        description: `A stock level holds at most ${MAX_ON_HAND} units; a receipt past that is a 409. A receipt names at most ${MAX_SERIALS_PER_REQUEST} serial numbers in all.`,
      }),
  })
  .openapi("ReceivePurchaseOrderRequest");
export type ReceiveBody = z.infer<typeof ReceiveBody>;

// A date (`2026-11-01`) or a timestamp; a bare date as createdTo means through the end of that day.
const DateBound = z.union([z.iso.date(), z.iso.datetime()], {
  error: "must be a date or an ISO 8601 UTC timestamp",
});

export const ListOrdersQuery = pageQuery.extend({
  status: OrderStatus.optional().openapi({ param: { name: "status", in: "query" } }),
  type: OrderType.optional().openapi({ param: { name: "type", in: "query" } }),
  customerId: Id.optional().openapi({ param: { name: "customerId", in: "query" } }),
  createdFrom: DateBound.optional().openapi({ param: { name: "createdFrom", in: "query" } }),
  createdTo: DateBound.optional().openapi({ param: { name: "createdTo", in: "query" } }),
  search: z
    .string()
    .trim()
    .max(64)
    .optional()
    .openapi({ param: { name: "search", in: "query" }, description: "Part of the order number" }),
  sort: sortQuery(["createdAt", "updatedAt", "number", "status", "total"], {
    field: "createdAt",
    direction: "desc",
  }),
});
export type ListOrdersQuery = z.infer<typeof ListOrdersQuery>;

const Actor = z.object({ type: z.enum(["user", "api_key", "system"]), id: z.string().nullable() });

export const OrderLineRecord = z
  .object({
    id: z.uuid(),
    lineNo: z.number().int(),
    productId: z.uuid(),
    quantity: z.number().int(),
    price: z.number().optional().openapi({ description: "Unit price (sales orders)" }),
    cost: z.number().optional().openapi({ description: "Unit cost (purchase orders)" }),
    receivedQuantity: z.number().int().optional().openapi({ description: "Purchase orders only" }),
    shippedQuantity: z
      .number()
      .int()
      .optional()
      .openapi({ description: "Sales orders: units shipped so far" }),
    backorderedQuantity: z.number().int().optional().openapi({
      description:
        "Sales orders: units a short pick closed (they will not ship on this order). Open = quantity - shipped - backordered.",
    }),
    lotNumber: z.string().nullable().optional().openapi({ description: "The lot a sales line is pinned to" }),
    lots: z
      .array(
        z.object({
          lotId: z.uuid(),
          lotNumber: z.string(),
          expiresAt: z.string().nullable().openapi({ format: "date" }),
          quantity: z.number().int(),
        }),
      )
      .nullable()
      .optional()
      .openapi({ description: "Sales orders: the lots the line was allocated (first-expiring-first-out)" }),
    serialNumbers: z
      .array(z.string())
      .nullable()
      .optional()
      .openapi({ description: "Sales orders: the serial numbers shipped (chosen at shipping)" }),
    kitLineId: z.uuid().nullable().optional().openapi({
      description:
        "Sales orders: the kit line (`kitLines`) this line is a component of; null for a product sold on its own.",
    }),
    lineTotal: ExactMoney,
    lineTotalExact: ExactMoneyText,
  })
  .openapi("OrderLine");

export const StatusChange = z
  // A union, not `.nullable()`: zod-openapi renders a nullable reference as `allOf`, which refuses null.
  .object({ from: z.union([OrderStatus, z.null()]), to: OrderStatus, at: z.string(), by: Actor })
  .openapi("OrderStatusChange");

const orderFields = {
  id: z.uuid(),
  number: z.string().openapi({ example: "SO-000001" }),
  type: OrderType,
  status: OrderStatus,
  customerId: z.uuid().nullable(),
  supplier: z.string().nullable(),
  warehouseId: z.uuid().nullable(),
  merchantId: z
    .uuid()
    .nullable()
    .openapi({ description: "The merchant of every product on the order (null: the tenant's own goods)." }),
  shippingAddress: nullableRef(ShippingAddress),
  trackingNumber: z.string().nullable(),
  notes: z.string().nullable(),
  expectedAt: z.string().nullable().openapi({ format: "date-time" }),
  totals: z.object({ quantity: z.number().int(), total: ExactMoney, totalExact: ExactMoneyText }),
  allowedTransitions: z.array(OrderStatus),
  createdAt: z.string().openapi({ format: "date-time" }),
  updatedAt: z.string().openapi({ format: "date-time" }),
};

export const OrderSummary = z.object(orderFields).openapi("OrderSummary");

export const KitLineRecord = z
  .object({
    id: z.uuid(),
    lineNo: z.number().int().openapi({ description: "The request line that sold the kit." }),
    productId: z.uuid().openapi({ description: "The kit." }),
    quantity: z.number().int().openapi({ description: "Kits sold." }),
    price: z.number().openapi({ description: "Unit price of one kit." }),
    lineTotal: ExactMoney,
    lineTotalExact: ExactMoneyText,
  })
  .openapi("OrderKitLine");

export const OrderRecord = z
  .object({
    ...orderFields,
    lines: z.array(OrderLineRecord).openapi({
      description:
        "What ships: products sold on their own, and each kit's components (`kitLineId`, price 0, numbered after the request's lines).",
    }),
    kitLines: z.array(KitLineRecord).openapi({
      description: "Sales orders: the lines that sold kits, priced per kit ([] without kits).",
    }),
    statusHistory: z.array(StatusChange),
  })
  .openapi("Order");
