import { z } from "@hono/zod-openapi";
import { nullableRef } from "../http/nullable";
import { pageQuery, sortQuery } from "../http/pagination";

export const Address = z
  .strictObject({
    street: z.string().trim().max(200).optional(),
    city: z.string().trim().max(100).optional(),
    zip: z.string().trim().max(20).optional(),
    state: z.string().trim().max(100).optional(),
    country: z.string().trim().max(100).optional(),
  })
  .openapi("Address");

export const WarehouseBody = z
  .strictObject({
    code: z
      .string({ error: "Code is required" })
      .trim()
      .min(1, "Code is required")
      .max(32, "must be at most 32 characters")
      .openapi({ example: "WH-MAIN" }),
    name: z
      .string({ error: "Name is required" })
      .trim()
      .min(1, "Name is required")
      .max(200, "must be at most 200 characters"),
    address: Address.optional(),
    active: z.boolean().optional(),
  })
  .openapi("WarehouseRequest");
export type WarehouseBody = z.infer<typeof WarehouseBody>;

export const WarehouseRecord = z
  .object({
    id: z.uuid(),
    code: z.string(),
    name: z.string(),
    address: nullableRef(Address),
    active: z.boolean(),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Warehouse");

export const ListWarehousesQuery = pageQuery.extend({
  search: z.string().trim().min(1).max(100).optional(),
  sort: sortQuery(["code", "name", "createdAt"], { field: "createdAt", direction: "desc" }),
});
export type ListWarehousesQuery = z.infer<typeof ListWarehousesQuery>;
