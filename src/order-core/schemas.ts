import { z } from "@hono/zod-openapi";
import { nullableRef } from "../http/nullable";
import { ExactMoney, ExactMoneyText } from "../money";
import { amountFields, withOneAmount } from "../stock";
import { trackedFields } from "../stock/schemas";
import { countryCodes } from "./countries";
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

const optional = <T extends z.ZodType>(schema: T, description: string) =>
  schema.optional().openapi({ description });

/**
 * Where a sales order ships: what a carrier's label needs. `street`, `city` and `zip` as the spec has them; the
 * rest is optional (issue #45 added name, company, street2, countryCode, phone and email; older orders lack them).
 */
export const ShippingAddress = z
  .strictObject({
    name: optional(Text(200), "The recipient, as the label prints it."),
    company: optional(Text(200), "The recipient's company, if any."),
    street: Text(200).openapi({ description: "The first address line." }),
    street2: optional(Text(200), "A second address line (building, floor, c/o)."),
    city: Text(100),
    zip: Text(20).openapi({ description: "The postal code." }),
    state: optional(Text(100), "The region: state, province or county, as the country writes it."),
    country: optional(
      Text(100),
      "The country's name as the sender wrote it (free text, kept for older clients); `countryCode` is what carriers read.",
    ),
    countryCode: z
      .enum(countryCodes, { error: "must be an ISO 3166-1 alpha-2 country code in capitals (DE, US, ...)" })
      .optional()
      .openapi({ description: "ISO 3166-1 alpha-2.", example: "DE" }),
    phone: optional(
      z
        .string()
        .trim()
        .regex(/^\+?[0-9][0-9 ()./-]{2,39}$/, "must be a phone number: digits, spaces and + ( ) - . /"),
      "For the carrier's delivery notice.",
    ),
    email: optional(
      z.email("must be an email address").max(254, "must be at most 254 characters"),
      "For the carrier's delivery notice.",
    ),
  })
  .openapi("ShippingAddress");
export type ShippingAddress = z.infer<typeof ShippingAddress>;

const Actor = z.object({ type: z.enum(["user", "api_key", "system"]), id: z.string().nullable() });

/** The product an order line names, as `GET /orders/{id}` reads it in the order's batch. */
const productNames = {
  sku: z.string().optional().openapi({
    description:
      "In `GET /orders/{id}`: the product's SKU (absent when the product is gone from the catalog).",
  }),
  productName: z.string().optional().openapi({
    description:
      "In `GET /orders/{id}`: the product's name (absent when the product is gone from the catalog).",
  }),
};

export const OrderLineRecord = z
  .object({
    id: z.uuid(),
    lineNo: z.number().int(),
    productId: z.uuid(),
    ...productNames,
    quantity: z.number().int(),
    price: z.number().optional().openapi({ description: "Unit price (sales orders)" }),
    cost: z.number().optional().openapi({ description: "Unit cost (purchase orders)" }),
    receivedQuantity: z.number().int().optional().openapi({ description: "Purchase orders only" }),
    reservedQuantity: z.number().int().optional().openapi({
      description:
        "Sales orders, in `GET /orders/{id}`: units reserved for the line now (in bins, or picked and waiting at the packing location).",
    }),
    pickedQuantity: z.number().int().optional().openapi({
      description: "Sales orders, in `GET /orders/{id}`: units picked for the line on pick lists so far.",
    }),
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
  customerName: z
    .string()
    .nullable()
    .openapi({ description: "Sales orders: the customer's name, if given." }),
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
    ...productNames,
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
export const ReceiptLine = withOneAmount(
  z.strictObject({ lineId: Id, ...amountFields(Quantity), locationId: Id, ...trackedFields }),
);
