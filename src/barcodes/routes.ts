import { grants } from "../auth/scopes";
import { envelopeOf, ok } from "../http/envelope";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { resolveBarcode } from "./resolve-barcode";
import { BarcodeParam, BarcodeResolution } from "./schemas";

const resolveBarcodeRoute = defineRoute(
  { scope: "read:inventory" },
  {
    method: "get",
    path: "/barcodes/{code}",
    operationId: "resolveBarcode",
    tags: ["Barcodes"],
    summary:
      "What a scanned code names: products (barcode or SKU), packagings (barcode), locations, lots, packages (SSCC)",
    description:
      "Every match at once, for scanner apps. Packages are matched by SSCC (18 digits, or 20 with the `00` application identifier) for callers that also hold `read:orders`.",
    request: { params: BarcodeParam },
    responses: {
      200: { description: "Every match", ...json(envelopeOf(BarcodeResolution)) },
      404: errorResponse("The code names nothing"),
    },
  },
);

export const barcodeRoutes = createRouter().openapi(resolveBarcodeRoute, async (c) =>
  ok(c, await resolveBarcode(c.var.tenantDb, c.req.valid("param").code, grants(c.var.scopes, "read:orders"))),
);
