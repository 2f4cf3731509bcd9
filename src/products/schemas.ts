import { z } from "@hono/zod-openapi";
import { productTypes } from "../db/schema/tenant";
import { idsQuery, pageQuery, sortQuery } from "../http/pagination";
import { KitComponent, Packaging, productFields } from "../product-core/schemas";
import { productStatuses } from "../record-schemas/product";

export const MAX_KIT_COMPONENTS = 50;
export const MAX_PACKAGINGS = 20;

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

export const CreateProductBody = z
  .strictObject({
    ...productFields,
    type: z.enum(productTypes, { error: "must be stocked or kit" }).optional().openapi({
      description:
        "`kit`: sold as its `components`, never holds stock itself; its availability is derived. Fixed at creation.",
    }),
    ...partFields,
  })
  .superRefine(noRepeats)
  .openapi("CreateProductRequest");
export type CreateProductBody = z.infer<typeof CreateProductBody>;

/** PUT and PATCH alike: any subset of the create fields (not the type); omitted ones stay unchanged. */
export const UpdateProductBody = z
  .strictObject({
    ...productFields,
    sku: productFields.sku.optional(),
    name: productFields.name.optional(),
    ...partFields,
  })
  .superRefine(noRepeats)
  .openapi("UpdateProductRequest");
export type ProductChanges = z.infer<typeof UpdateProductBody>;
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
  ids: idsQuery("products"),
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
