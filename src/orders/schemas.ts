import { z } from "@hono/zod-openapi";
import { MAX_ON_HAND } from "../db/schema/tenant";
import { idsQuery, pageQuery, sortQuery } from "../http/pagination";
import { MAX_ORDER_TOTAL, Money } from "../money";
import {
  Id,
  OrderStatus,
  OrderType,
  Quantity,
  ReceiptLine,
  ShippingAddress,
  Text,
} from "../order-core/schemas";
import { amountFields, withOneAmount } from "../stock";
import { LotNumber, MAX_SERIALS_PER_REQUEST, SerialNumbers, withinSerialsPerRequest } from "../stock/schemas";

const MAX_LINES = 500;

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

export const CreateSalesOrderBody = z
  .strictObject({
    customerId: Id,
    customerName: Text(200).optional().openapi({ description: "The customer's name, as people see it." }),
    warehouseId: Id.optional().openapi({ description: "Reserve only from this warehouse's locations." }),
    lines: PricedLines(
      withOneAmount(
        z.strictObject({
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
        }),
      ),
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
      withOneAmount(z.strictObject({ productId: Id, ...amountFields(Quantity), cost: Money })),
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
    lines: Lines(ReceiptLine)
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
  merchantId: z
    .uuid("must be a merchant's id")
    .optional()
    .openapi({
      param: { name: "merchantId", in: "query" },
      description:
        "Only this merchant's orders (a 3PL's client); 404 for a merchant the tenant does not have.",
    }),
  ids: idsQuery("orders"),
  createdFrom: DateBound.optional().openapi({ param: { name: "createdFrom", in: "query" } }),
  createdTo: DateBound.optional().openapi({ param: { name: "createdTo", in: "query" } }),
  search: z
    .string()
    .trim()
    .max(64)
    .optional()
    .openapi({
      param: { name: "search", in: "query" },
      description: "Part of the order number, the customer's name or the supplier (case-insensitive)",
    }),
  sort: sortQuery(["createdAt", "updatedAt", "number", "status", "total"], {
    field: "createdAt",
    direction: "desc",
  }),
});
export type ListOrdersQuery = z.infer<typeof ListOrdersQuery>;
