import { z } from "@hono/zod-openapi";
import { pageQuery, sortQuery } from "../http/pagination";
import { requiredText } from "../http/required-text";

export const MerchantBody = z
  .strictObject({
    code: requiredText("Code", 32).openapi({ example: "ACME" }),
    name: requiredText("Name", 200).openapi({ example: "Acme Outdoor" }),
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
