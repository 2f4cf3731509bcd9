import { z } from "@hono/zod-openapi";
import { returnStatuses } from "../db/schema/tenant";
import { pageQuery } from "../http/pagination";
import { requiredText } from "../http/required-text";
import { amountFields, withOneAmount } from "../stock";
import { LotNumber, SerialNumbers, withinSerialsPerRequest } from "../stock/schemas";

/** Lines one return names (an order has at most 500). */
export const MAX_RETURN_LINES = 500;
/** Lines one receipt names: each is a few statements of the receipt's one batch. */
export const MAX_RECEIPT_LINES = 100;

const Id = (message: string) => z.uuid(message);
const Quantity = z
  .number({ error: "must be a positive integer" })
  .int("must be a positive integer")
  .min(1, "must be a positive integer")
  .max(1_000_000_000, "must be at most 1000000000")
  .openapi({ example: 1 });

export const CreateReturnBody = z
  .strictObject({
    orderId: Id("must be a UUID (a sales order)"),
    lines: z
      .array(
        withOneAmount(
          z.strictObject({
            orderLineId: Id("must be a UUID (a line of the order)").openapi({
              description:
                "A line of the order, or a kit line (`kitLines[].id`): a kit line returns each of its component " +
                "lines, quantity x the component's units per kit.",
            }),
            ...amountFields(Quantity),
            reason: requiredText("Reason", 64).openapi({
              example: "damaged",
              description: "Why it comes back, as the shop codes it (reports group by it exactly).",
            }),
          }),
        ),
        { error: "must be an array of lines" },
      )
      .min(1, "must have at least one line")
      .max(MAX_RETURN_LINES, `must have at most ${MAX_RETURN_LINES} lines`)
      .openapi({
        description:
          "An order line may be named on several lines (units coming back for different reasons); together they " +
          "return at most what shipped on it minus what other returns claim.",
      }),
    notes: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(1000, "must be at most 1000 characters")
      .optional(),
  })
  .openapi("CreateReturnRequest");
export type CreateReturnBody = z.infer<typeof CreateReturnBody>;

/** The statuses a PATCH may ask for: `received` is reached only by receipts. */
export const requestableStatuses = ["authorized", "rejected", "cancelled", "closed"] as const;

export const UpdateReturnStatusBody = z
  .strictObject({
    status: z.enum(requestableStatuses, { error: "must be authorized, rejected, cancelled or closed" }),
  })
  .openapi("UpdateReturnStatusRequest");
export type UpdateReturnStatusBody = z.infer<typeof UpdateReturnStatusBody>;

const receiptLine = {
  returnLineId: Id("must be a UUID (a line of this return)"),
  ...amountFields(Quantity),
  lotNumber: LotNumber.optional().openapi({
    description: "Required for lot-tracked products: a lot that shipped on the order line.",
  }),
  serialNumbers: SerialNumbers.optional().openapi({
    description: "Required for serial-tracked products: serials that shipped on the order line.",
  }),
};
const placedAt = (description: string) => Id("must be a UUID").openapi({ description });

/** A receipt line, by disposition: restock and quarantine name where the units go, scrap may. */
const ReceiptLine = z.discriminatedUnion(
  "disposition",
  [
    withOneAmount(
      z.strictObject({
        ...receiptLine,
        disposition: z.literal("restock"),
        locationId: placedAt("A sellable location, where the units are put back."),
      }),
    ),
    withOneAmount(
      z.strictObject({
        ...receiptLine,
        disposition: z.literal("quarantine"),
        locationId: placedAt("A non-sellable location, where the units are kept apart."),
      }),
    ),
    withOneAmount(
      z.strictObject({
        ...receiptLine,
        disposition: z.literal("scrap"),
        locationId: placedAt(
          "Where the write-off is booked (default: the packing location of the warehouse the units shipped from).",
        ).optional(),
      }),
    ),
  ],
  { error: "must be restock, quarantine or scrap" },
);

export const ReturnReceiptBody = z
  .strictObject({
    lines: z
      .array(ReceiptLine, { error: "must be an array of lines" })
      .min(1, "must have at least one line")
      .max(MAX_RECEIPT_LINES, `must have at most ${MAX_RECEIPT_LINES} lines`)
      .refine(withinSerialsPerRequest, { message: "must name at most 5000 serial numbers in all" }),
  })
  .openapi("ReturnReceiptRequest");
export type ReturnReceiptBody = z.infer<typeof ReturnReceiptBody>;
/** A receipt's lines with their quantities in base units. */
export type ReceiptInUnits = { lines: (ReturnReceiptBody["lines"][number] & { quantity: number })[] };

export const ListReturnsQuery = pageQuery.extend({
  status: z
    .enum(returnStatuses, { error: `must be one of ${returnStatuses.join(", ")}` })
    .optional()
    .openapi({ param: { name: "status", in: "query" } }),
  orderId: z
    .uuid("must be a UUID")
    .optional()
    .openapi({ param: { name: "orderId", in: "query" }, description: "Only the returns of this order." }),
});
export type ListReturnsQuery = z.infer<typeof ListReturnsQuery>;
