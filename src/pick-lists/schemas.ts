import { z } from "@hono/zod-openapi";
import { pickListLineStatuses, pickListStatuses } from "../db/schema/tenant";
import { pageQuery } from "../http/pagination";
import { requiredText } from "../http/required-text";
import { amountFields, oneAmount } from "../stock/packs";
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

export const PickListLineRecord = z
  .object({
    id: z.uuid(),
    lineNo: z.number().int().openapi({ description: "Position in walking order." }),
    orderId: z.uuid(),
    orderLineId: z.uuid(),
    productId: z.uuid(),
    sku: z.string(),
    locationId: z.uuid(),
    locationCode: z.string(),
    lotNumber: z.string().nullable(),
    quantity: z.number().int(),
    pickedQuantity: z.number().int(),
    shortQuantity: z.number().int(),
    status: z.enum(pickListLineStatuses),
    kit: z
      .object({
        lineId: z.uuid().openapi({ description: "The order's kit line (Order.kitLines)." }),
        lineNo: z.number().int(),
        productId: z.uuid().openapi({ description: "The kit." }),
      })
      .nullable()
      .openapi({
        description: "A kit's component: the kit line it ships for (null for a product sold on its own).",
      }),
  })
  .openapi("PickListLine");
export type PickListLineRecord = z.infer<typeof PickListLineRecord>;

const pickListFields = {
  id: z.uuid(),
  warehouseId: z.uuid(),
  // Named, so the list, its summary and its events share one status type in the generated clients.
  status: z.enum(pickListStatuses).openapi("PickListStatus"),
  orderIds: z.array(z.uuid()),
  createdAt: z.string().openapi({ format: "date-time" }),
  updatedAt: z.string().openapi({ format: "date-time" }),
  completedAt: z.string().nullable().openapi({ format: "date-time" }),
  cancelledAt: z.string().nullable().openapi({ format: "date-time" }),
};

export const PickListRecord = z
  .object({ ...pickListFields, lines: z.array(PickListLineRecord) })
  .openapi("PickList");
export type PickListRecord = z.infer<typeof PickListRecord>;

export const PickListSummary = z
  .object({
    ...pickListFields,
    totals: z.object({
      lines: z.number().int(),
      quantity: z.number().int(),
      pickedQuantity: z.number().int(),
      shortQuantity: z.number().int(),
    }),
  })
  .openapi("PickListSummary");

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

export const PickBody = z
  .strictObject({
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
  })
  // Without quantity or packs, the scanned code says how many: a packaging barcode one pack (checked on confirm).
  .superRefine((pick, ctx) => oneAmount(pick, ctx, false))
  .openapi("PickRequest");
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
