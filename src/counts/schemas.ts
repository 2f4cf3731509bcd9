import { z } from "@hono/zod-openapi";
import { countStatuses } from "../db/schema/tenant";
import { pageQuery } from "../http/pagination";
import { oneAmount, PacksOrNone, packFields } from "../stock/packs";
import {
  LotNumber,
  MAX_SERIALS_PER_LINE,
  MAX_SERIALS_PER_REQUEST,
  SerialNumber,
  withinSerialsPerRequest,
} from "../stock/schemas";

const Id = z.uuid("must be a UUID");
const MAX_IDS = 100;
/**
 * A count's bounds (docs/decisions/cycle-counts.md): its lines, and the serials its snapshot lists or its
 * lines count. They keep every count approvable in one batch, each row within D1's 1 MB, and its GET whole.
 */
export const MAX_COUNT_LINES = 2000;
export const MAX_COUNT_SERIALS = 5000;

export const CreateCountBody = z
  .strictObject({
    warehouseId: Id.optional().openapi({ description: "Count every location of this warehouse." }),
    locationIds: z
      .array(Id)
      .min(1)
      .max(MAX_IDS)
      .optional()
      .openapi({ description: "Or count these locations." }),
    productIds: z.array(Id).min(1).max(MAX_IDS).optional().openapi({ description: "Only these products." }),
  })
  .refine((b) => (b.warehouseId === undefined) !== (b.locationIds === undefined), {
    message: "name either warehouseId or locationIds",
    path: ["warehouseId"],
  })
  .openapi("CreateInventoryCountRequest", {
    // The refinement above, for the document: exactly one of the two scopes.
    oneOf: [
      { required: ["warehouseId"], title: "By warehouse" },
      { required: ["locationIds"], title: "By locations" },
    ],
    description: `A count holds at most ${MAX_COUNT_LINES} lines (levels with stock in scope) and ${MAX_COUNT_SERIALS} serial numbers on hand in scope; a larger scope is a 400 (narrow it with productIds or locationIds).`,
  });
export type CreateCountBody = z.infer<typeof CreateCountBody>;

export const CountLinesBody = z
  .strictObject({
    lines: z
      .array(
        z
          .strictObject({
            productId: Id,
            locationId: Id,
            lotNumber: LotNumber.optional().openapi({ description: "Required for lot-tracked products." }),
            serialNumbers: z
              .array(SerialNumber)
              .max(MAX_SERIALS_PER_LINE, `must name at most ${MAX_SERIALS_PER_LINE} serial numbers`)
              .optional()
              .openapi({
                description:
                  "Required for serial-tracked products: every serial found there (counted = their count; [] for none).",
                example: ["SN-0001", "SN-0002"],
                uniqueItems: true,
              }),
            counted: z
              .number({ error: "must be an integer" })
              .int("must be an integer")
              .min(0, "must not be negative")
              .max(1_000_000_000, "must be at most 1000000000")
              .optional(),
            ...packFields("counted", PacksOrNone),
          })
          .superRefine((line, ctx) => oneAmount(line, ctx, true, "counted")),
      )
      .min(1, "must have at least one line")
      .max(500, "must have at most 500 lines")
      .refine(withinSerialsPerRequest, {
        message: `must name at most ${MAX_SERIALS_PER_REQUEST} serial numbers in all`,
      }),
  })
  .openapi("InventoryCountLinesRequest");
export type CountLinesBody = z.infer<typeof CountLinesBody>;

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

export const CountsQuery = pageQuery.extend({
  status: z.enum(countStatuses, { error: `must be one of ${countStatuses.join(", ")}` }).optional(),
  warehouseId: Id.optional(),
});
export type CountsQuery = z.infer<typeof CountsQuery>;
