import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type TestTenant, unique } from "./support/builders";
import { BASE, call } from "./support/http";
import { requestRefusal, type SchemaObject, servedDocument } from "./support/openapi";

// Issue 50: the document states every rule across a request's fields that the server checks (src/http/field-rules.ts
// and src/stock/packs.ts's withOneAmount attach the check and its JSON Schema together). For each request schema
// with such a rule, every forbidden combination goes to the real route: the server answers 400 in the envelope and
// the served document refuses the same body; one allowed combination passes both (the server may then answer 404
// for the made-up ids, never a validation failure). `call` also fails any test where the two disagree.

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant({ plan: "enterprise" });
});

const id = () => crypto.randomUUID();
const expiresAt = () => new Date(Date.now() + 86_400_000).toISOString();
const address = { street: "1 Main St", city: "Springfield", zip: "12345" };

/** The amount rule's combinations: exactly one of `field` or packaging with packs. */
const amounts = (field = "quantity", value = 2) => ({
  forbidden: {
    neither: {},
    both: { [field]: value, packaging: "case", packs: 1 },
    "packaging without packs": { packaging: "case" },
    "packs without packaging": { packs: 1 },
    [`${field} with packaging only`]: { [field]: value, packaging: "case" },
    [`${field} with packs only`]: { [field]: value, packs: 1 },
  } as Record<string, Record<string, unknown>>,
  allowed: [{ [field]: value }, { packaging: "case", packs: 1 }],
});

interface RuleCase {
  schema: string;
  method: "POST" | "PUT";
  path: string;
  /** The whole body around the fields a combination gives. */
  body: (fields: Record<string, unknown>) => unknown;
  forbidden: Record<string, Record<string, unknown>>;
  allowed: Record<string, unknown>[];
}

const amountCase = (
  schema: string,
  method: RuleCase["method"],
  path: string,
  body: RuleCase["body"],
  field?: string,
  value?: number,
): RuleCase => ({ schema, method, path, body, ...amounts(field, value) });

const place = { productId: id(), locationId: id() };

const cases = (): RuleCase[] => [
  amountCase("AdjustmentRequest", "POST", "/inventory/adjustments", (f) => ({
    ...place,
    reason: "cycle_count",
    ...f,
  })),
  amountCase("TransferRequest", "POST", "/inventory/transfers", (f) => ({
    productId: id(),
    fromLocationId: id(),
    toLocationId: id(),
    ...f,
  })),
  {
    schema: "CreateHoldRequest",
    method: "POST",
    path: "/inventory/holds",
    body: (f) => ({ productId: id(), expiresAt: expiresAt(), ...f }),
    forbidden: {
      ...amounts().forbidden,
      "locationId and warehouseId": { quantity: 2, locationId: id(), warehouseId: id() },
    },
    allowed: [...amounts().allowed, { quantity: 2, warehouseId: id() }, { quantity: 2, locationId: id() }],
  },
  amountCase("CreateSalesOrderRequest", "POST", "/orders/sales", (f) => ({
    customerId: id(),
    lines: [{ productId: id(), price: 1, ...f }],
    shippingAddress: address,
  })),
  amountCase("CreatePurchaseOrderRequest", "POST", "/orders/purchase", (f) => ({
    supplier: "Acme",
    warehouseId: id(),
    lines: [{ productId: id(), cost: 1, ...f }],
  })),
  amountCase("ReceivePurchaseOrderRequest", "POST", `/orders/${id()}/receive`, (f) => ({
    lines: [{ lineId: id(), locationId: id(), ...f }],
  })),
  amountCase("CreateShipmentRequest", "POST", `/orders/${id()}/shipments`, (f) => ({
    packages: [{ weight: { value: 1, unit: "kg" }, lines: [{ orderLineId: id(), ...f }] }],
  })),
  amountCase("CreateReturnRequest", "POST", "/returns", (f) => ({
    orderId: id(),
    lines: [{ orderLineId: id(), reason: "damaged", ...f }],
  })),
  ...(["restock", "quarantine", "scrap"] as const).map((disposition) =>
    amountCase(`ReturnReceiptRequest (${disposition})`, "POST", `/returns/${id()}/receipts`, (f) => ({
      lines: [{ returnLineId: id(), disposition, locationId: id(), ...f }],
    })),
  ),
  amountCase(
    "InventoryCountLinesRequest",
    "PUT",
    `/inventory/counts/${id()}/lines`,
    (f) => ({ lines: [{ productId: id(), locationId: id(), ...f }] }),
    "counted",
    0,
  ),
  {
    schema: "CreateInventoryCountRequest",
    method: "POST",
    path: "/inventory/counts",
    body: (f) => f,
    forbidden: {
      neither: {},
      both: { warehouseId: id(), locationIds: [id()] },
      "only productIds": { productIds: [id()] },
    },
    allowed: [{ warehouseId: id() }, { locationIds: [id()], productIds: [id()] }],
  },
  {
    schema: "PickRequest",
    method: "POST",
    path: `/pick-lists/${id()}/picks`,
    body: (f) => ({ location: "A-01-01", product: "WID-001", ...f }),
    forbidden: {
      both: { quantity: 1, packaging: "case", packs: 1 },
      "packaging without packs": { packaging: "case" },
      "packs without packaging": { packs: 1 },
      "quantity with packs only": { quantity: 1, packs: 1 },
    },
    // Neither: the scanned code says how many (a packaging's barcode one pack).
    allowed: [{}, { quantity: 1 }, { packaging: "case", packs: 1 }],
  },
  ...(
    [
      ["AdjustmentBatchLine", "POST", "/inventory/adjustments/batch", "quantity", 2],
      ["SetStockLevelRequest", "PUT", "/inventory/levels", "onHand", 5],
    ] as const
  ).map(([schema, method, path, field, value]): RuleCase => {
    const amount = { [field]: value };
    const wrap = (f: Record<string, unknown>) =>
      schema === "AdjustmentBatchLine" ? { lines: [{ reason: "cycle_count", ...f }] } : f;
    return {
      schema,
      method,
      path,
      body: wrap,
      forbidden: {
        ...Object.fromEntries(
          Object.entries(amounts(field, value).forbidden).map(([name, f]) => [
            name,
            { sku: "WID-001", locationId: id(), ...f },
          ]),
        ),
        "sku and productId": { sku: "WID-001", productId: id(), locationId: id(), ...amount },
        "neither sku nor productId": { locationId: id(), ...amount },
        "locationCode and locationId": { productId: id(), locationCode: "A-01", locationId: id(), ...amount },
        "neither locationCode nor locationId": { productId: id(), ...amount },
        "warehouseCode without locationCode": {
          productId: id(),
          locationId: id(),
          warehouseCode: "MAIN",
          ...amount,
        },
      },
      allowed: [
        { sku: "WID-001", locationId: id(), ...amount },
        { productId: id(), locationCode: "A-01", warehouseCode: "MAIN", packaging: "case", packs: 1 },
      ],
    };
  }),
  {
    schema: "CreateJobRequest",
    method: "POST",
    path: "/jobs",
    body: (f) => f,
    forbidden: {
      "an import without uploadId": { type: "product_import" },
      "an export with uploadId": { type: "products_export", uploadId: id() },
      "an option of another type": { type: "stock_export", options: { reason: "x" } },
      "an import with an export's option": {
        type: "stock_import",
        uploadId: id(),
        options: { from: "2026-01-01T00:00:00Z" },
      },
      "an option on a type without options": {
        type: "product_import",
        uploadId: id(),
        options: { reason: "x" },
      },
    },
    // Imports of an upload that does not exist (404), so no job starts.
    allowed: [
      { type: "product_import", uploadId: id() },
      { type: "stock_import", uploadId: id(), options: { reason: "recount" } },
    ],
  },
  ...(
    [
      ["InviteUserRequest", "POST", "/users", { email: `invitee-${unique()}@example.com` }],
      ["UpdateUserRequest", "PUT", `/users/${id()}`, {}],
    ] as const
  ).map(
    ([schema, method, path, rest]): RuleCase => ({
      schema,
      method,
      path,
      body: (f) => ({ ...rest, ...f }),
      forbidden: { "an owner acting for one merchant": { role: "owner", merchantId: id() } },
      allowed: [
        { role: "owner" },
        { role: "owner", merchantId: null },
        { role: "operator", merchantId: id() },
      ],
    }),
  ),
  {
    schema: "BillingRate",
    method: "POST",
    path: "/billing/rate-cards",
    body: (rate) => ({
      merchantId: id(),
      currency: "EUR",
      effectiveFrom: "2026-11-01",
      rates: [{ unitPrice: 1, ...rate }],
    }),
    forbidden: {
      "another activity's unit": { activity: "packing", per: "unit" },
      "locationType on a picking rate": { activity: "picking", per: "order", locationType: "bin" },
      "packageType on a storage rate": { activity: "storage", per: "unit_day", packageType: "box" },
    },
    allowed: [
      { activity: "storage", per: "location_day", locationType: "bin" },
      { activity: "packing", per: "package", packageType: "box" },
    ],
  },
];

const request = (rule: RuleCase, body: unknown) =>
  new Request(`${BASE}${rule.path}`, {
    method: rule.method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("the document states the rules across a request's fields, and agrees with the server", () => {
  for (const rule of cases()) {
    it(`${rule.schema}: each forbidden combination is a 400 from the server and refused by the document`, async () => {
      for (const [name, fields] of Object.entries(rule.forbidden)) {
        const body = rule.body(fields);
        const res = await call(rule.method, rule.path, { headers: tenant.admin, body });
        expect(res.status, `${rule.schema}, ${name}`).toBe(400);
        expect(res.headers.get("x-error-code"), `${rule.schema}, ${name}`).toBe("VALIDATION_FAILED");
        expect(res.body.success).toBe(false);
        expect(res.body.errors?.length, `${rule.schema}, ${name}`).toBeGreaterThan(0);
        expect(await requestRefusal(request(rule, body)), `${rule.schema}, ${name}`).toBeDefined();
      }
    });

    it(`${rule.schema}: an allowed combination passes the document and the server's validation`, async () => {
      for (const fields of rule.allowed) {
        const body = rule.body(fields);
        expect(await requestRefusal(request(rule, body)), JSON.stringify(fields)).toBeUndefined();
        const res = await call(rule.method, rule.path, { headers: tenant.admin, body });
        expect(
          res.headers.get("x-error-code"),
          `${rule.schema} ${JSON.stringify(fields)}: ${res.status} ${JSON.stringify(res.body.errors)}`,
        ).not.toBe("VALIDATION_FAILED");
      }
    });
  }

  it("a transfer's two locations must differ: JSON Schema cannot compare them, so the description says it", async () => {
    const same = id();
    const body = { productId: id(), fromLocationId: same, toLocationId: same, quantity: 1 };
    const res = await call("POST", "/inventory/transfers", { headers: tenant.admin, body });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(["toLocationId: must differ from fromLocationId"]);
    const doc = await servedDocument();
    const transfer = doc.components?.schemas?.TransferRequest as SchemaObject & { description?: string };
    const to = transfer.properties?.toLocationId as { description?: string };
    expect(to.description).toMatch(/Another location than fromLocationId/);
  });

  it("the rule keywords are those OpenAPI 3.1 takes: oneOf of required lists and dependentRequired", async () => {
    const schemas = ((await servedDocument()).components?.schemas ?? {}) as Record<
      string,
      Record<string, unknown>
    >;
    const adjustment = schemas.AdjustmentRequest ?? {};
    expect(adjustment.oneOf).toEqual([{ required: ["quantity"] }, { required: ["packaging", "packs"] }]);
    expect(adjustment.dependentRequired).toEqual({ packaging: ["packs"], packs: ["packaging"] });
    expect(schemas.CreateHoldRequest?.allOf).toContainEqual({
      not: { required: ["locationId", "warehouseId"] },
    });
  });
});
