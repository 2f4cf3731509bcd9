import { z } from "@hono/zod-openapi";
import { nullableRef } from "../http/nullable";
import { pageQuery, sortQuery } from "../http/pagination";
import { requiredText } from "../http/required-text";

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
    code: requiredText("Code", 32).openapi({ example: "WH-MAIN" }),
    name: requiredText("Name", 200),
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
