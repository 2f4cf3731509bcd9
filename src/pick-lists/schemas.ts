import { z } from "@hono/zod-openapi";
import { pickListStatuses } from "../db/schema/tenant";
import { pageQuery } from "../http/pagination";
import { requiredText } from "../http/required-text";
import { amountFields, withOneAmount } from "../stock";
import { LotNumber, SerialNumbers } from "../stock/schemas";

/** The most orders one pick list (a wave) takes. */
export const MAX_ORDERS_PER_PICK_LIST = 200;
/** The most lines one pick list holds: its `pick_list.created` event stays far below D1's 1 MB a row. */
export const MAX_LINES_PER_PICK_LIST = 1000;

export const CreatePickListBody = z
  .strictObject({
    warehouseId: z.uuid({ error: "must be a UUID (the warehouse's id)" }),
    orderIds: z
      .array(z.uuid("must be a UUID"), { error: "must be a list of sales order ids" })
      .min(1, "must name at least one order")
      .max(MAX_ORDERS_PER_PICK_LIST, `must name at most ${MAX_ORDERS_PER_PICK_LIST} orders`)
      .refine((ids) => new Set(ids).size === ids.length, "must not name an order twice")
      .openapi({ uniqueItems: true }),
  })
  .openapi("CreatePickListRequest");
export type CreatePickListBody = z.infer<typeof CreatePickListBody>;

export const ListPickListsQuery = pageQuery.extend({
  status: z.enum(pickListStatuses, { error: `must be one of ${pickListStatuses.join(", ")}` }).optional(),
  warehouseId: z.uuid("must be a UUID").optional(),
  orderId: z.uuid("must be a UUID").optional(),
});
export type ListPickListsQuery = z.infer<typeof ListPickListsQuery>;

const scanned = (what: string) =>
  z
    .string({ error: `must be the scanned ${what}` })
    .trim()
    .min(1, `must be the scanned ${what}`)
    .max(128, "must be at most 128 characters");

// Without quantity or packs, the scanned code says how many: a packaging barcode one pack (checked on confirm).
export const PickBody = withOneAmount(
  z.strictObject({
    lineId: z.uuid("must be a UUID").optional().openapi({
      description: "The line picked; without it, the first open line for this location and product.",
    }),
    location: scanned("location (its id or code)").openapi({ example: "A-01-03" }),
    product: scanned("product (its id, SKU or barcode, or a packaging's barcode)").openapi({
      example: "4006381333931",
      description:
        "A packaging's barcode names its product and counts one pack when neither quantity nor packs is sent.",
    }),
    ...amountFields(
      z
        .number({ error: "must be an integer" })
        .int("must be an integer")
        .min(1, "must be at least 1")
        .max(1_000_000_000, "must be at most 1000000000"),
    ),
    lotNumber: LotNumber.optional(),
    serialNumbers: SerialNumbers.optional(),
    toteCode: z.string().trim().min(1).max(64).optional(),
  }),
  { required: false },
).openapi("PickRequest");
export type PickBody = z.infer<typeof PickBody>;

export const ShortBody = z
  .strictObject({
    lineId: z.uuid("must be a UUID"),
    quantity: z
      .number({ error: "must be an integer" })
      .int("must be an integer")
      .min(1, "must be at least 1")
      .max(1_000_000_000, "must be at most 1000000000"),
    reason: requiredText("Reason", 200).openapi({ example: "bin empty" }),
  })
  .openapi("ShortRequest");
export type ShortBody = z.infer<typeof ShortBody>;
