import { z } from "@hono/zod-openapi";
import { countStatuses } from "../db/schema/tenant";

// A stock count as its own operations and the `inventory.count_approved` event show it (src/counts, src/events).

const serials = (description: string) => z.array(z.string()).nullable().openapi({ description });

export const CountLine = z
  .object({
    productId: z.uuid(),
    sku: z.string(),
    locationId: z.uuid(),
    locationCode: z.string(),
    warehouseId: z.uuid(),
    lotId: z.uuid().nullable(),
    lotNumber: z.string().nullable(),
    expected: z.number().int().openapi({ description: "On hand when the count was created (the snapshot)." }),
    counted: z.number().int().nullable(),
    onHandAtCount: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "On hand when the line was counted: the snapshot plus every movement since." }),
    variance: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "counted - onHandAtCount (null until counted)." }),
    countedAt: z.string().nullable().openapi({ format: "date-time" }),
    expectedSerials: serials("Serial-tracked products: the serials on hand there at the snapshot."),
    serialNumbers: serials("Serial-tracked products: the serials counted (null until counted)."),
    missingSerials: serials(
      "On hand when the line was counted but not found: approval removes exactly these (null until counted).",
    ),
    foundSerials: serials(
      "Found but not on hand there when counted: approval adds exactly these, creating unknown ones (null until counted).",
    ),
  })
  .openapi("InventoryCountLine");

const countFields = {
  id: z.uuid(),
  // Named, so every schema showing a count's status (the count, its summary, the approval event) shares one type.
  status: z.enum(countStatuses).openapi("InventoryCountStatus"),
  warehouseId: z.uuid().nullable(),
  locationIds: z.array(z.uuid()).nullable(),
  productIds: z.array(z.uuid()).nullable(),
  createdBy: z.string().nullable(),
  approvedBy: z.string().nullable(),
  createdAt: z.string().openapi({ format: "date-time" }),
  submittedAt: z.string().nullable().openapi({ format: "date-time" }),
  approvedAt: z.string().nullable().openapi({ format: "date-time" }),
  cancelledAt: z.string().nullable().openapi({ format: "date-time" }),
  updatedAt: z.string().openapi({ format: "date-time" }),
};

export const CountSummary = z.object(countFields).openapi("InventoryCountSummary");

export const CountRecord = z
  .object({
    ...countFields,
    lines: z.array(CountLine),
    totals: z.object({
      lines: z.number().int(),
      counted: z.number().int(),
      withVariance: z.number().int(),
      variance: z.number().int().openapi({ description: "Sum of the variances (units)." }),
    }),
  })
  .openapi("InventoryCount");

export type CountRecord = z.infer<typeof CountRecord>;
