import { z } from "@hono/zod-openapi";
import { nullableRef } from "../http/nullable";
import { ExactMoney, ExactMoneyText } from "../money";
import { amountFields, oneAmount } from "../stock/packs";
import { trackedFields } from "../stock/schemas";
import { orderStatuses } from "./state-machine";

// An order as its own operations and its events show it (src/orders, src/pick-lists, src/shipments, src/events),
// and the fields its requests share.

const MAX_QUANTITY = 1_000_000_000;

export const Quantity = z
  .number({ error: "must be a positive integer" })
  .int("must be a positive integer")
  .min(1, "must be a positive integer")
  .max(MAX_QUANTITY, `must be at most ${MAX_QUANTITY}`)
  .openapi({ example: 3 });

export const Id = z.uuid("must be a UUID");

export const Text = (max: number) =>
  z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

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

/** A purchase order receipt's line: as `POST /orders/{id}/receive` takes it and `purchase_order.received` shows it. */
export const ReceiptLine = z
  .strictObject({ lineId: Id, ...amountFields(Quantity), locationId: Id, ...trackedFields })
  .superRefine((line, ctx) => oneAmount(line, ctx));
