import { z } from "@hono/zod-openapi";
import { productTrackings, productTypes } from "../db/schema/tenant";

// A product as its own operations, its `product.*` events and a products export show it (src/products,
// src/events, src/jobs).

export const productStatuses = ["Active", "Inactive"] as const;

export const PackagingRecord = z
  .object({
    code: z.string(),
    name: z.string(),
    quantity: z.number().int().openapi({ description: "Base units in one pack." }),
    barcode: z.string().nullable(),
  })
  .openapi("ProductPackaging");

export const ProductRecord = z
  .object({
    id: z.uuid(),
    sku: z.string(),
    name: z.string(),
    barcode: z.string().nullable(),
    category: z.string().nullable(),
    unit: z.string().nullable(),
    price: z.number().nullable(),
    cost: z.number().nullable(),
    status: z.enum(productStatuses),
    reorderPoint: z.number().int(),
    tracking: z.enum(productTrackings),
    type: z.enum(productTypes).openapi("ProductType"),
    components: z
      .array(z.object({ productId: z.uuid(), quantity: z.number().int() }).openapi("KitComponentRecord"))
      .openapi({ description: "A kit's components ([] for a stocked product)." }),
    packagings: z.array(PackagingRecord),
    description: z.string().nullable(),
    merchantId: z.uuid().nullable(),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Product");

export type ProductRecord = z.infer<typeof ProductRecord>;
