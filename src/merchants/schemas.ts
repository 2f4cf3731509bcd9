import { z } from "@hono/zod-openapi";
import { pageQuery, sortQuery } from "../http/pagination";

export const MerchantBody = z
  .strictObject({
    code: z
      .string({ error: "Code is required" })
      .trim()
      .min(1, "Code is required")
      .max(32, "must be at most 32 characters")
      .openapi({ example: "ACME" }),
    name: z
      .string({ error: "Name is required" })
      .trim()
      .min(1, "Name is required")
      .max(200, "must be at most 200 characters")
      .openapi({ example: "Acme Outdoor" }),
  })
  .openapi("MerchantRequest");
export type MerchantBody = z.infer<typeof MerchantBody>;

export const MerchantRecord = z
  .object({
    id: z.uuid(),
    code: z.string(),
    name: z.string(),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Merchant");

export const ListMerchantsQuery = pageQuery.extend({
  search: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .openapi({ description: "Case-insensitive, on code and name." }),
  sort: sortQuery(["code", "name", "createdAt"], { field: "code", direction: "asc" }),
});
export type ListMerchantsQuery = z.infer<typeof ListMerchantsQuery>;
