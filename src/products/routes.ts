import type { RouteHandler } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { created, envelopeOf, ok } from "../http/envelope";
import { pagedOf, pageQuery } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import type { StoredProduct } from "../product-core/parts";
import { etagOf, productRecord } from "../product-core/records";
import {
  MAX_BATCH_PRODUCTS,
  ProductBatchBody,
  ProductBatchResult,
  ProductFieldsBody,
} from "../product-core/schemas";
import { upsertProducts } from "../product-core/upsert-products";
import { ProductRecord } from "../record-schemas/product";
import { createProduct } from "./create-product";
import { deleteProduct } from "./delete-product";
import { findProduct } from "./get-product";
import { importProducts, MAX_IMPORT_ROWS, rowsOf } from "./import";
import { listInvalidBarcodes } from "./invalid-barcodes";
import { listProducts } from "./list-products";
import {
  CreateProductBody,
  ImportQuery,
  ImportResult,
  InvalidBarcode,
  ListProductsQuery,
  UpdateProductBody,
} from "./schemas";
import { updateProduct } from "./update-product";

const read = { scope: "read:products" } as const;
const write = { scope: "write:products" } as const;
const tags = ["Products"];
const etagHeader = {
  ETag: { description: "The product's version, for If-Match", schema: { type: "string" as const } },
};
const one = (description: string) => ({
  description,
  headers: etagHeader,
  ...json(envelopeOf(ProductRecord)),
});
const unknown = { 404: errorResponse("Unknown product") };
const ifMatch = z.object({
  "if-match": z
    .string()
    .max(128)
    .optional()
    .openapi({ description: "An ETag from a read: the write fails with 412 if the product changed since." }),
});
const stale = { 412: errorResponse("If-Match does not match the product's current ETag") };

const listProductsRoute = defineRoute(read, {
  method: "get",
  path: "/products",
  operationId: "listProducts",
  tags,
  summary: "List products: search, filters, sort and updatedSince for incremental sync",
  request: { query: ListProductsQuery },
  responses: { 200: { description: "A page of products", ...json(envelopeOf(pagedOf(ProductRecord))) } },
});
const listInvalidBarcodesRoute = defineRoute(read, {
  method: "get",
  path: "/products/invalid-barcodes",
  operationId: "listInvalidBarcodes",
  tags,
  summary:
    "Stored barcodes that read as a GTIN with a wrong check digit (a read-only check; nothing is changed)",
  request: { query: pageQuery },
  responses: {
    200: {
      description: "A page of products with a bad GTIN, by SKU",
      ...json(envelopeOf(pagedOf(InvalidBarcode))),
    },
  },
});
const getProductRoute = defineRoute(read, {
  method: "get",
  path: "/products/{id}",
  operationId: "getProduct",
  tags,
  summary: "Get a product (with its ETag)",
  request: { params: IdParam },
  responses: { 200: one("The product"), ...unknown },
});
const createProductRoute = defineRoute(write, {
  method: "post",
  path: "/products",
  operationId: "createProduct",
  tags,
  summary: "Create a product (sku and name required; sku and barcode unique per tenant)",
  request: { body: { required: true, ...json(CreateProductBody) } },
  responses: {
    201: one("The new product"),
    404: errorResponse("Unknown merchant, or a kit's component names an unknown product"),
    409: errorResponse("SKU or barcode already used"),
  },
});
/** PUT and PATCH are the same operation: any subset of fields, the omitted ones unchanged. */
const productUpdateRoute = <const M extends "put" | "patch">(method: M, operationId: string) =>
  defineRoute(write, {
    method,
    path: "/products/{id}",
    operationId,
    tags,
    summary: "Update a product: send any subset of fields; omitted ones stay unchanged",
    request: { params: IdParam, headers: ifMatch, body: { required: true, ...json(UpdateProductBody) } },
    responses: {
      200: one("The updated product"),
      404: errorResponse("Unknown product or merchant, or a kit's component names an unknown product"),
      409: errorResponse(
        "SKU or barcode already used, a kit's components changed while an open order holds it, or the merchant changed while the product has stock or open orders or is a component of another owner's kits",
      ),
      ...stale,
    },
  });
const updateProductRoute = productUpdateRoute("put", "updateProduct");
const patchProductRoute = productUpdateRoute("patch", "patchProduct");
const deleteProductRoute = defineRoute(write, {
  method: "delete",
  path: "/products/{id}",
  operationId: "deleteProduct",
  tags,
  summary: "Delete a product without stock or open order lines",
  request: { params: IdParam, headers: ifMatch },
  responses: {
    200: one("The deleted product"),
    ...unknown,
    409: errorResponse("The product has stock or open order lines"),
    ...stale,
  },
});
const importProductsRoute = defineRoute(write, {
  method: "post",
  path: "/products/import",
  operationId: "importProducts",
  tags,
  summary: `Import up to ${MAX_IMPORT_ROWS} products from a JSON array or a CSV with a header row, all or nothing`,
  description:
    "`mode=create` (default) refuses SKUs that exist; `mode=upsert` updates them. `dryRun=true` validates only. " +
    "Any bad row rejects the whole import with one message per problem (`row 12: sku: SKU is required`).",
  request: {
    query: ImportQuery,
    body: {
      required: true,
      content: {
        // Rows are validated by the import itself, so every bad row is reported with its row number.
        "application/json": {
          schema: z.unknown().openapi({
            type: "array",
            items: { $ref: "#/components/schemas/ProductImportRow" },
            minItems: 1,
            maxItems: MAX_IMPORT_ROWS,
          }),
        },
        "text/csv": { schema: z.string().openapi({ example: "sku,name,price\nWID-001,Widget,19.99" }) },
      },
    },
  },
  responses: {
    200: { description: "Counts of created and updated products", ...json(envelopeOf(ImportResult)) },
  },
});

const upsertProductsRoute = defineRoute(write, {
  method: "post",
  path: "/products/batch",
  operationId: "upsertProducts",
  tags,
  summary: `Create or update up to ${MAX_BATCH_PRODUCTS} products keyed by SKU, each on its own (per-line results)`,
  description:
    "A new SKU needs what a create needs (name); a stored SKU changes only the fields sent, and a product sent as it " +
    "is stored is left alone (`unchanged`: no new version, no event). Each line is judged on its own: a SKU or " +
    "barcode named twice, a barcode another product holds, or a tracking change (one product at a time, through " +
    "PUT /products/{id}) refuses that line only. One Idempotency-Key covers the whole batch.",
  request: { body: { required: true, ...json(ProductBatchBody) } },
  responses: {
    200: { description: "Each product's result, in request order", ...json(envelopeOf(ProductBatchResult)) },
  },
});

function withEtag(c: Context, { row, parts }: StoredProduct) {
  c.header("ETag", etagOf(row));
  return productRecord(row, parts);
}

const updateHandler: RouteHandler<typeof updateProductRoute | typeof patchProductRoute, AppEnv> = async (
  c,
) => {
  const { id } = c.req.valid("param");
  return ok(
    c,
    withEtag(c, await updateProduct(c.var.tenantDb, id, c.req.valid("json"), c.req.header("if-match"))),
  );
};

const router = createRouter();
// The import's rows are checked by the import itself (each bad row named); the document still names their shape.
router.openAPIRegistry.register("ProductImportRow", ProductFieldsBody);

export const productRoutes = router
  .openapi(listProductsRoute, async (c) => ok(c, await listProducts(c.var.tenantDb, c.req.valid("query"))))
  .openapi(importProductsRoute, async (c) => {
    const rows = rowsOf(c.req.header("content-type") ?? "", await c.req.text());
    return ok(c, await importProducts(c.var.tenantDb, rows, c.req.valid("query")));
  })
  .openapi(upsertProductsRoute, async (c) => ok(c, await upsertProducts(c.var.tenantDb, c.req.valid("json"))))
  .openapi(listInvalidBarcodesRoute, async (c) =>
    ok(c, await listInvalidBarcodes(c.var.tenantDb, c.req.valid("query"))),
  )
  .openapi(getProductRoute, async (c) =>
    ok(c, withEtag(c, await findProduct(c.var.tenantDb, c.req.valid("param").id))),
  )
  .openapi(createProductRoute, async (c) => {
    const product = withEtag(c, await createProduct(c.var.tenantDb, c.req.valid("json")));
    return created(c, product, `/api/v1/products/${product.id}`);
  })
  .openapi(updateProductRoute, updateHandler)
  .openapi(patchProductRoute, updateHandler)
  .openapi(deleteProductRoute, async (c) =>
    ok(
      c,
      withEtag(c, await deleteProduct(c.var.tenantDb, c.req.valid("param").id, c.req.header("if-match"))),
    ),
  );
