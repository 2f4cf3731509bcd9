import { z } from "@hono/zod-openapi";
import { pickListLineStatuses, pickListStatuses } from "../db/schema/tenant";

// A pick list as its own operations and its `pick_list.*` events show it (src/pick-lists, src/events).

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
