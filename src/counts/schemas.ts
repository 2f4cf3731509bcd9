import { z } from "@hono/zod-openapi";
import { countStatuses } from "../db/schema/tenant";
import { exactlyOne, withRules } from "../http/field-rules";
import { pageQuery } from "../http/pagination";
import { PacksOrNone, packFields, withOneAmount } from "../stock";
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

export const CreateCountBody = withRules(
  z.strictObject({
    warehouseId: Id.optional().openapi({ description: "Count every location of this warehouse." }),
    locationIds: z
      .array(Id)
      .min(1)
      .max(MAX_IDS)
      .optional()
      .openapi({ description: "Or count these locations." }),
    productIds: z.array(Id).min(1).max(MAX_IDS).optional().openapi({ description: "Only these products." }),
  }),
  exactlyOne("warehouseId", "locationIds"),
).openapi("CreateInventoryCountRequest", {
  description: `A count holds at most ${MAX_COUNT_LINES} lines (levels with stock in scope) and ${MAX_COUNT_SERIALS} serial numbers on hand in scope; a larger scope is a 400 (narrow it with productIds or locationIds).`,
});
export type CreateCountBody = z.infer<typeof CreateCountBody>;

export const CountLinesBody = z
  .strictObject({
    lines: z
      .array(
        withOneAmount(
          z.strictObject({
            productId: Id,
            locationId: Id,
            lotNumber: LotNumber.optional().openapi({ description: "Required for lot-tracked products." }),
            serialNumbers: z
              .array(SerialNumber)
              .max(MAX_SERIALS_PER_LINE, `must name at most ${MAX_SERIALS_PER_LINE} serial numbers`)
              .optional()
              .openapi({
                description:
                  "Required for serial-tracked products: every serial found there, [] for none. The line still sends its amount (counted, or packaging and packs), which must equal the number of serials.",
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
          }),
          { field: "counted" },
        ),
      )
      .min(1, "must have at least one line")
      .max(500, "must have at most 500 lines")
      .refine(withinSerialsPerRequest, {
        message: `must name at most ${MAX_SERIALS_PER_REQUEST} serial numbers in all`,
      }),
  })
  .openapi("InventoryCountLinesRequest");
export type CountLinesBody = z.infer<typeof CountLinesBody>;

export const CountsQuery = pageQuery.extend({
  status: z.enum(countStatuses, { error: `must be one of ${countStatuses.join(", ")}` }).optional(),
  warehouseId: Id.optional(),
});
export type CountsQuery = z.infer<typeof CountsQuery>;
