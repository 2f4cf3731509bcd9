import { z } from "@hono/zod-openapi";
import { productTrackings, type productTypes } from "../db/schema/tenant";
import { gtinProblem } from "../gs1/gtin";
import type { CsvColumnTypes } from "../http/csv-parse";
import { requiredText } from "../http/required-text";
import { Money } from "../money";
import { productStatuses } from "../record-schemas/product";
import { PackagingCode } from "../stock";

// The shapes of a product that its own writes and the bulk writes (the batch upsert, the product import job) share.

/** A product's plain fields as a create takes them. */
export const productFields = {
  sku: requiredText("SKU", 64).openapi({ example: "WID-001" }),
  name: requiredText("Name", 200).openapi({ example: "Widget" }),
  barcode: z
    .string()
    .trim()
    .regex(/^\d{1,64}$/, "must be a digit string")
    .superRefine((barcode, ctx) => {
      // 8, 12, 13 or 14 digits are a GTIN: its check digit must be right (docs/decisions/fulfilment.md).
      const problem = gtinProblem(barcode);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .nullable()
    .optional()
    .openapi({
      example: "4006381333931",
      description: "Digits. 8, 12, 13 or 14 of them are a GTIN and must end in its GS1 check digit.",
    }),
  category: z.string().trim().min(1).max(100).nullable().optional(),
  unit: z.string().trim().min(1).max(32).nullable().optional().openapi({ example: "pcs" }),
  price: Money.nullable().optional(),
  cost: Money.nullable().optional(),
  reorderPoint: z
    .number({ error: "must be an integer" })
    .int("must be an integer")
    .min(0, "must not be negative")
    .max(1_000_000_000, "must be at most 1000000000")
    .optional(),
  description: z.string().trim().max(2000).nullable().optional(),
  status: z.enum(productStatuses, { error: "must be Active or Inactive" }).optional(),
  tracking: z.enum(productTrackings, { error: "must be none, lot or serial" }).optional().openapi({
    description:
      "How units are told apart: by lot (with expiry) or by serial number. Fixed while the product has stock.",
  }),
  merchantId: z.uuid("must be a merchant's id").nullable().optional().openapi({
    description:
      "The merchant whose goods these are (null: the tenant's own). Fixed while the product has stock or open orders.",
  }),
};

export const KitComponent = z
  .strictObject({
    productId: z.uuid("must be a UUID (a stocked product's id)"),
    quantity: z
      .number({ error: "must be a positive integer" })
      .int("must be a positive integer")
      .min(1, "must be a positive integer")
      .max(10_000, "must be at most 10000"),
  })
  .openapi("KitComponent");
export type KitComponent = z.infer<typeof KitComponent>;

export const Packaging = z
  .strictObject({
    code: PackagingCode,
    name: z
      .string({ error: "must be a string" })
      .trim()
      .min(1, "must not be empty")
      .max(100, "must be at most 100 characters")
      .openapi({ example: "Case of 12" }),
    quantity: z
      .number({ error: "must be an integer greater than 1" })
      .int("must be an integer greater than 1")
      .min(2, "must be an integer greater than 1")
      .max(1_000_000, "must be at most 1000000")
      .openapi({ description: "Base units in one pack.", example: 12 }),
    barcode: productFields.barcode.openapi({
      description:
        "Unique per tenant, also against products' barcodes. Scanning it in a pick counts one pack.",
    }),
  })
  .openapi("Packaging");
export type Packaging = z.infer<typeof Packaging>;

/** A product's plain fields, as the bulk writes (import, batch) take them: stocked products without parts. */
export const ProductFieldsBody = z.strictObject(productFields).openapi("ProductImportRow");
export type ProductFieldsBody = z.infer<typeof ProductFieldsBody>;

/** The plain fields a product row holds: the create fields, with its type. */
export type ProductFields = ProductFieldsBody & { type?: (typeof productTypes)[number] };

/** What a bulk write changes of a stored product: any subset of its plain fields. */
export type ProductFieldChanges = Partial<ProductFieldsBody>;

/** The product columns a CSV holds numbers in (an import's file, a product_import job's rows). */
export const PRODUCT_CSV_COLUMNS: CsvColumnTypes = {
  numeric: new Set(["price", "cost", "reorderPoint"]),
  // A spreadsheet's `active` or `Lot` means the API's word: a person types these cells (JSON clients have the enums).
  words: { status: productStatuses, tracking: productTrackings },
};

export const MAX_BATCH_PRODUCTS = 1000;

/** A product of a batch upsert, keyed by SKU: a new SKU needs what a create needs; a stored one changes the fields sent. */
export const ProductBatchLine = z
  .strictObject({ ...productFields, name: productFields.name.optional() })
  .openapi("ProductBatchLine");

export const ProductBatchBody = z
  .strictObject({
    products: z
      .array(ProductBatchLine)
      .min(1, "must have at least 1 product")
      .max(MAX_BATCH_PRODUCTS, `must have at most ${MAX_BATCH_PRODUCTS} products`),
  })
  .openapi("ProductBatchRequest");
export type ProductBatchBody = z.infer<typeof ProductBatchBody>;

export const ProductBatchResult = z
  .object({
    applied: z.number().int().openapi({ description: "Products created, updated or already as sent." }),
    failed: z.number().int(),
    results: z
      .array(
        z
          .object({
            status: z.number().int().openapi({
              description: "As an HTTP status: 201 created, 200 updated or unchanged, 400 or 409 refused.",
              example: 201,
            }),
            action: z.enum(["created", "updated", "unchanged"]).openapi("ProductBatchAction").optional(),
            id: z.uuid().optional().openapi({ description: "The product's id (not on a refused line)." }),
            errors: z
              .array(z.string())
              .optional()
              .openapi({ example: ["name: Name is required"] }),
          })
          .openapi("ProductBatchLineResult"),
      )
      .openapi({ description: "One per product, in the request's order." }),
  })
  .openapi("ProductBatchResult");
export type ProductBatchResult = z.infer<typeof ProductBatchResult>;
