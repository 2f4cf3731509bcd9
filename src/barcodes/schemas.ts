import { z } from "@hono/zod-openapi";
import { locationTypes } from "../db/schema/tenant";

export const BarcodeParam = z.object({
  code: z
    .string()
    .min(1, "must not be empty")
    .max(128, "must be at most 128 characters")
    .openapi({ param: { name: "code", in: "path" }, example: "4006381333931" }),
});

const ProductMatch = z
  .object({
    type: z.literal("product"),
    matchedOn: z.enum(["barcode", "sku"]),
    product: z.object({
      id: z.uuid(),
      sku: z.string(),
      name: z.string(),
      barcode: z.string().nullable(),
      merchantId: z
        .uuid()
        .nullable()
        .openapi({
          description:
            "The merchant whose product it is (null: the tenant's own). SKUs and barcodes are unique per merchant, so " +
            "one code may name several merchants' products: each the caller may see is listed, and the work at hand " +
            "(a pick list's line, an order's) tells which is meant.",
        }),
    }),
  })
  .openapi("BarcodeProductMatch");

const PackagingMatch = z
  .object({
    type: z.literal("packaging"),
    product: ProductMatch.shape.product,
    packaging: z.object({
      code: z.string(),
      name: z.string(),
      quantity: z.number().int().openapi({ description: "Base units in one pack." }),
      barcode: z.string(),
    }),
  })
  .openapi("BarcodePackagingMatch");

const LocationMatch = z
  .object({
    type: z.literal("location"),
    location: z.object({
      id: z.uuid(),
      code: z.string(),
      name: z.string(),
      type: z.enum(locationTypes),
      warehouseId: z.uuid(),
      warehouseCode: z.string(),
    }),
  })
  .openapi("BarcodeLocationMatch");

const LotMatch = z
  .object({
    type: z.literal("lot"),
    lot: z.object({
      id: z.uuid(),
      number: z.string(),
      expiresAt: z.string().nullable().openapi({ format: "date" }),
      productId: z.uuid(),
      sku: z.string(),
    }),
  })
  .openapi("BarcodeLotMatch");

const PackageMatch = z
  .object({
    type: z.literal("package"),
    package: z.object({
      id: z.uuid(),
      sscc: z.string(),
      shipmentId: z.uuid(),
      orderId: z.uuid(),
      trackingNumber: z.string().nullable(),
    }),
  })
  .openapi("BarcodePackageMatch");

export const BarcodeResolution = z
  .object({
    code: z.string(),
    matches: z.array(
      z.discriminatedUnion("type", [ProductMatch, PackagingMatch, LocationMatch, LotMatch, PackageMatch]),
    ),
  })
  .openapi("BarcodeResolution");
export type BarcodeResolution = z.infer<typeof BarcodeResolution>;
