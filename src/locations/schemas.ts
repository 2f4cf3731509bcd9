import { z } from "@hono/zod-openapi";
import { locationTypes } from "../db/schema/tenant";
import { pageQuery, sortQuery } from "../http/pagination";
import { requiredText } from "../http/required-text";

const locationFields = {
  code: requiredText("Code", 64).openapi({ example: "A-01-03" }),
  name: requiredText("Name", 200),
  type: z.enum(locationTypes, { error: `must be one of ${locationTypes.join(", ")}` }),
  parentId: z
    .uuid("must be a UUID")
    .nullable()
    .optional()
    .openapi({ description: "A location of the same warehouse." }),
  pickSequence: z
    .number({ error: "must be an integer" })
    .int("must be an integer")
    .min(0, "must not be negative")
    .max(1_000_000_000, "must be at most 1000000000")
    .nullable()
    .optional()
    .openapi({
      description:
        "Walking order on pick lists: lower first, then by code; locations without one come after those with.",
    }),
  active: z.boolean().optional(),
  sellable: z
    .boolean({ error: "must be true or false" })
    .optional()
    .openapi({
      description:
        "Default true. Stock at a non-sellable location (quarantine) counts in onHand but is never available, " +
        "reserved or picked; moving it back is a transfer. A packing location is always sellable.",
    }),
};

export const CreateLocationBody = z
  .strictObject({ warehouseId: z.uuid({ error: "must be a UUID (the warehouse's id)" }), ...locationFields })
  .openapi("CreateLocationRequest");
export type CreateLocationBody = z.infer<typeof CreateLocationBody>;

export const UpdateLocationBody = z.strictObject(locationFields).openapi("UpdateLocationRequest");
export type UpdateLocationBody = z.infer<typeof UpdateLocationBody>;

export const LocationRecord = z
  .object({
    id: z.uuid(),
    warehouseId: z.uuid(),
    code: z.string(),
    name: z.string(),
    type: z.enum(locationTypes),
    parentId: z.string().nullable(),
    pickSequence: z.number().int().nullable(),
    active: z.boolean(),
    sellable: z.boolean(),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Location");

export const ListLocationsQuery = pageQuery.extend({
  warehouseId: z.uuid("must be a UUID").optional(),
  type: z.enum(locationTypes, { error: `must be one of ${locationTypes.join(", ")}` }).optional(),
  search: z.string().trim().min(1).max(100).optional(),
  sort: sortQuery(["code", "name", "createdAt"], { field: "createdAt", direction: "desc" }),
});
export type ListLocationsQuery = z.infer<typeof ListLocationsQuery>;

export const LocationStockQuery = pageQuery.extend({ lotId: z.uuid("must be a UUID").optional() });
export type LocationStockQuery = z.infer<typeof LocationStockQuery>;
