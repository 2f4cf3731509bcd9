import { z } from "@hono/zod-openapi";
import { productTrackings, productTypes } from "../db/schema/tenant";
import { gtinProblem } from "../gs1/gtin";
import { pageQuery, sortQuery } from "../http/pagination";
import { requiredText } from "../http/required-text";
import { Money } from "../money";
import { productStatuses } from "../record-schemas/product";
import { PackagingCode } from "../stock/packs";

const fields = {
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

export const MAX_KIT_COMPONENTS = 50;
export const MAX_PACKAGINGS = 20;

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
    barcode: fields.barcode.openapi({
      description:
        "Unique per tenant, also against products' barcodes. Scanning it in a pick counts one pack.",
    }),
  })
  .openapi("Packaging");
export type Packaging = z.infer<typeof Packaging>;

/** What a product is made of and how it is packed: each list replaces the stored one when sent. */
const partFields = {
  components: z
    .array(KitComponent, { error: "must be an array of components" })
    .min(1, "a kit has at least 1 component")
    .max(MAX_KIT_COMPONENTS, `a kit has at most ${MAX_KIT_COMPONENTS} components`)
    .optional()
    .openapi({
      description:
        "Kits only (and required for them): the stocked products one kit is made of. Fixed while an open order holds the kit (409).",
    }),
  packagings: z
    .array(Packaging, { error: "must be an array of packagings" })
    .max(MAX_PACKAGINGS, `must have at most ${MAX_PACKAGINGS} packagings`)
    .optional()
    .openapi({
      description:
        "Stocked products only: pack sizes a stock quantity may be given in (`{packaging, packs}`). Replaces the stored list when sent.",
    }),
};

/** Codes and barcodes named twice in one product's lists, and a component named twice. */
function noRepeats(product: { components?: KitComponent[]; packagings?: Packaging[] }, ctx: z.RefinementCtx) {
  const repeated = (
    field: "components" | "packagings",
    key: string,
    values: (string | null | undefined)[],
  ) => {
    const seen = new Set<string>();
    values.forEach((value, i) => {
      if (value === null || value === undefined) return;
      if (seen.has(value))
        ctx.addIssue({ code: "custom", message: `${value} is named twice`, path: [field, i, key] });
      seen.add(value);
    });
  };
  repeated(
    "components",
    "productId",
    (product.components ?? []).map((c) => c.productId),
  );
  repeated(
    "packagings",
    "code",
    (product.packagings ?? []).map((p) => p.code),
  );
  repeated(
    "packagings",
    "barcode",
    (product.packagings ?? []).map((p) => p.barcode),
  );
}

/** A product's plain fields, as the bulk writes (import, batch) take them: stocked products without parts. */
export const ProductFieldsBody = z.strictObject(fields).openapi("ProductImportRow");
export type ProductFieldsBody = z.infer<typeof ProductFieldsBody>;

export const CreateProductBody = z
  .strictObject({
    ...fields,
    type: z.enum(productTypes, { error: "must be stocked or kit" }).optional().openapi({
      description:
        "`kit`: sold as its `components`, never holds stock itself; its availability is derived. Fixed at creation.",
    }),
    ...partFields,
  })
  .superRefine(noRepeats)
  .openapi("CreateProductRequest");
export type CreateProductBody = z.infer<typeof CreateProductBody>;

/** The plain fields a product row holds. */
export type ProductFields = Omit<CreateProductBody, "components" | "packagings">;

/** PUT and PATCH alike: any subset of the create fields (not the type); omitted ones stay unchanged. */
export const UpdateProductBody = z
  .strictObject({ ...fields, sku: fields.sku.optional(), name: fields.name.optional(), ...partFields })
  .superRefine(noRepeats)
  .openapi("UpdateProductRequest");
export type ProductChanges = z.infer<typeof UpdateProductBody>;
/** What a bulk write changes of a stored product: its plain fields. */
export type ProductFieldChanges = Omit<ProductChanges, "components" | "packagings">;

export const DEFAULT_PRODUCT_SORT = { field: "createdAt", direction: "desc" } as const;
/** An incremental sync (`updatedSince` without `sort`) reads changes oldest first, so it can resume from the last one. */
export const SYNC_SORT = { field: "updatedAt", direction: "asc" } as const;

export const ListProductsQuery = pageQuery.extend({
  search: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .openapi({ description: "Case-insensitive, on sku, name and barcode." }),
  category: z.string().trim().min(1).max(100).optional(),
  status: z.enum(productStatuses, { error: "must be Active or Inactive" }).optional(),
  merchantId: z
    .uuid("must be a merchant's id")
    .optional()
    .openapi({ description: "Only this merchant's products." }),
  updatedSince: z.iso
    .datetime({ offset: true, message: "must be an ISO 8601 timestamp" })
    .optional()
    .openapi({ description: "Only products changed at or after this time (incremental sync)." }),
  sort: sortQuery(["sku", "name", "price", "createdAt", "updatedAt"], {
    field: "createdAt",
    direction: "desc",
  }),
});
export type ListProductsQuery = z.infer<typeof ListProductsQuery>;

export const ImportQuery = z.object({
  mode: z.enum(["create", "upsert"], { error: "must be create or upsert" }).default("create"),
  dryRun: z
    .enum(["true", "false"], { error: "must be true or false" })
    .default("false")
    .transform((v) => v === "true"),
});

export const ImportResult = z
  .object({
    dryRun: z.boolean(),
    rows: z.number().int(),
    created: z.number().int(),
    updated: z.number().int(),
  })
  .openapi("ProductImportResult");

export const InvalidBarcode = z
  .object({
    productId: z.uuid(),
    sku: z.string(),
    name: z.string(),
    barcode: z.string(),
    problem: z
      .string()
      .openapi({ example: "4006381333932 is not a valid GTIN-13: its check digit should be 1" }),
  })
  .openapi("InvalidBarcode");

export const MAX_BATCH_PRODUCTS = 1000;

/** A product of a batch upsert, keyed by SKU: a new SKU needs what a create needs; a stored one changes the fields sent. */
export const ProductBatchLine = z
  .strictObject({ ...fields, name: fields.name.optional() })
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
