import { beforeAll, describe, expect, it } from "vitest";
import type { Method } from "./support/api-types";
import { levelsIn } from "./support/api-types";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  day,
  newMember,
  receiveLot,
  salesOrder,
  setStatus,
  type TestTenant,
  unique,
  whoAmI,
} from "./support/builders";
import { call } from "./support/http";
import { mailTo, tokenIn } from "./support/mail";
import { type OpenApiDocument, servedDocument } from "./support/openapi";
import { stubReceiver } from "./support/webhook-receiver";

// Merchant-scoped access (issue #32), walked over every operation of the OpenAPI document as the bad-input walk
// is: a key acting for merchant A gets 404 for merchant B's ids, never changes B's rows, and never sees them in a
// list, a total, a report, the events feed or its webhooks.

const SCOPES = [
  "read:products",
  "write:products",
  "read:inventory",
  "write:inventory",
  "read:orders",
  "write:orders",
  "billing",
];

let tenant: TestTenant;
let doc: OpenApiDocument;
let asA: Record<string, string>;
/** A person invited to act for merchant A (`POST /users {merchantId}`), as an admin: their session's headers. */
let asMemberOfA: Record<string, string>;
const a = { merchantId: "", productId: "", orderId: "" };
/** B's ids by the resource each path names, and every string that would show one of B's rows. */
const b: Record<string, string> = {};
let bTraces: string[] = [];

/** The response, or a failed set-up naming what was refused. */
async function made<T extends { status: number; body: unknown }>(what: string, res: Promise<T>): Promise<T> {
  const done = await res;
  if (done.status >= 300) throw new Error(`${what}: ${done.status} ${JSON.stringify(done.body)}`);
  return done;
}

async function merchant(code: string) {
  const res = await call("POST", "/merchants", { headers: tenant.admin, body: { code, name: code } });
  return res.body.data.id as string;
}

beforeAll(async () => {
  tenant = await createTenant();
  doc = await servedDocument();
  const [ma, mb] = [await merchant(`A-${unique()}`), await merchant(`B-${unique()}`)];
  a.merchantId = ma;
  const warehouse = await createWarehouse(tenant);
  const bin = await createLocation(tenant, warehouse.id);
  // B's world, made by the tenant's admin: stock, a lot, a hold, orders, a pick list, a shipment, a count.
  const pb = await createProduct(tenant, { merchantId: mb, barcode: "4006381333931", reorderPoint: 50 });
  const pbLot = await createProduct(tenant, { merchantId: mb, tracking: "lot" });
  await adjustStock(tenant, pb.id, bin.id, 40);
  await receiveLot(tenant, pbLot.id, bin.id, 5, { lotNumber: `LOT-B-${unique()}`, expiresAt: day(90) });
  const lots = await call("GET", `/lots?productId=${pbLot.id}`, { headers: tenant.admin });
  const lot = lots.body.data.items[0];
  if (!lot) throw new Error("B's lot was received");
  const hold = await made(
    "hold",
    call("POST", "/inventory/holds", {
      headers: tenant.admin,
      body: {
        productId: pb.id,
        quantity: 1,
        warehouseId: warehouse.id,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    }),
  );
  const shipped = (
    await salesOrder(tenant, [{ productId: pb.id, quantity: 2 }], { warehouseId: warehouse.id })
  ).body.data;
  await setStatus(tenant, shipped.id, { status: "confirmed" });
  const line = shipped.lines[0];
  const shipment = await made(
    "shipment",
    call("POST", `/orders/${shipped.id}/shipments`, {
      headers: tenant.admin,
      body: {
        carrier: "dhl",
        packages: [
          {
            packageType: "box",
            weight: { value: 1, unit: "kg" },
            lines: [{ orderLineId: line?.id, quantity: 1 }],
          },
        ],
      },
    }),
  );
  const picked = (
    await salesOrder(tenant, [{ productId: pb.id, quantity: 3 }], { warehouseId: warehouse.id })
  ).body.data;
  await setStatus(tenant, picked.id, { status: "confirmed" });
  const pickList = await made(
    "pickList",
    call("POST", "/pick-lists", {
      headers: tenant.admin,
      body: { warehouseId: warehouse.id, orderIds: [picked.id] },
    }),
  );
  const purchase = await made(
    "purchase",
    call("POST", "/orders/purchase", {
      headers: tenant.admin,
      body: {
        supplier: "Acme",
        warehouseId: warehouse.id,
        lines: [{ productId: pb.id, quantity: 4, cost: 1 }],
      },
    }),
  );
  const count = await made(
    "count",
    call("POST", "/inventory/counts", {
      headers: tenant.admin,
      body: { warehouseId: warehouse.id, productIds: [pb.id] },
    }),
  );
  const webhook = await made(
    "webhook",
    call("POST", "/webhooks", {
      headers: tenant.admin,
      body: { url: "https://hooks.example.com/tenant", events: ["*"] },
    }),
  );
  const rateCard = await made(
    "rateCard",
    call("POST", "/billing/rate-cards", {
      headers: tenant.admin,
      body: {
        merchantId: mb,
        currency: "EUR",
        effectiveFrom: "2026-01-01",
        rates: [{ activity: "minimum", per: "month", unitPrice: 10 }],
      },
    }),
  );
  const invoice = await made(
    "invoice",
    call("POST", "/billing/invoices", {
      headers: tenant.admin,
      body: { merchantId: mb, period: new Date().toISOString().slice(0, 7) },
    }),
  );
  const movements = await call("GET", `/inventory/movements?productId=${pb.id}`, { headers: tenant.admin });
  Object.assign(b, {
    products: pb.id,
    lots: lot.id,
    holds: hold.body.data.id,
    orders: purchase.body.data.id,
    shipments: shipment.body.data.id,
    packages: shipment.body.data.packages[0]?.id,
    "pick-lists": pickList.body.data.id,
    counts: count.body.data.id,
    merchants: mb,
    webhooks: webhook.body.data.id,
    barcodes: pb.barcode,
    "rate-cards": rateCard.body.data.id,
    invoices: invoice.body.data.id,
  });
  bTraces = [
    mb,
    pb.id,
    pb.sku,
    pbLot.id,
    pbLot.sku,
    lot.id,
    lot.number,
    hold.body.data.id,
    shipped.id,
    shipped.number,
    picked.id,
    picked.number,
    purchase.body.data.id,
    purchase.body.data.number,
    shipment.body.data.id,
    pickList.body.data.id,
    count.body.data.id,
    rateCard.body.data.id,
    invoice.body.data.id,
    ...movements.body.data.items.map((m: { id: string }) => m.id),
  ];
  for (const trace of bTraces) expect(trace, "B's world was built").toBeTruthy();

  // A's key, and A's own goods and order.
  const key = await call("POST", "/api-keys", {
    headers: tenant.admin,
    body: { name: "merchant A", scopes: SCOPES, merchantId: ma },
  });
  expect(key.status).toBe(201);
  expect(key.body.data.merchantId).toBe(ma);
  asA = { "x-api-key": key.body.data.key };
  const pa = await call("POST", "/products", { headers: asA, body: { sku: `A-${unique()}`, name: "A's" } });
  expect(pa.body.data.merchantId).toBe(ma); // a merchant key's products are its merchant's
  a.productId = pa.body.data.id;
  await adjustStock(tenant, a.productId, bin.id, 6);
  a.orderId = (await salesOrder(tenant, [{ productId: a.productId, quantity: 1 }], {}, asA)).body.data.id;
  const email = `brand-a-${unique()}@example.com`;
  await made(
    "member of A",
    call("POST", "/users", { headers: tenant.admin, body: { email, role: "admin", merchantId: ma } }),
  );
  const joined = await made(
    "joining",
    call("POST", "/auth/invitations/accept", {
      body: { token: tokenIn(await mailTo(email)), password: "member-password-1", name: "Brand A" },
    }),
  );
  if (!("token" in joined.body.data)) throw new Error("a new person is signed in");
  asMemberOfA = { authorization: `Bearer ${joined.body.data.token}`, "x-tenant-id": tenant.id };
});

interface Operation {
  method: Method;
  path: string;
  admin: boolean;
  params: { name: string; required?: boolean; in: string }[];
}

const operations = (): Operation[] =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase() as Method,
      path: path.replace(/^\/api\/v1/, ""),
      // Routes of the whole tenant (403 to a merchant's credential): administration, and billing's writes.
      admin:
        JSON.stringify(operation.security ?? []).includes('"admin"') ||
        (path.startsWith("/api/v1/billing") && method !== "get"),
      params: (operation.parameters ?? []) as Operation["params"],
    })),
  );

/**
 * What a merchant's admin administers of its own: its webhooks, and it reads its merchant's audit entries (verifying
 * the chains reads the whole tenant's: 403).
 */
const merchantAdministers = (path: string) =>
  path.startsWith("/webhooks") || (path.startsWith("/audit-events") && path !== "/audit-events/verify");

/** The tenant's own resources, shared by its merchants, and the operations no tenant credential calls. */
const notMerchants = (path: string) =>
  /^\/(platform|auth|health|openapi\.json|docs|warehouses|locations|settings|users\/invitations)\b/.test(
    path,
  );

/** B's id for each parameter of a path: by the resource its first segment (or the one before it) names. */
function withBIds(path: string): string {
  return path.replace(
    /\/([\w-]+)(?:\/([\w-]+))?\/\{(\w+)\}/g,
    (whole, first: string, second, param: string) => {
      const resource =
        param === "packageId"
          ? "packages"
          : first === "inventory" || first === "billing"
            ? (second ?? "")
            : first;
      const id = b[resource] ?? b[first] ?? crypto.randomUUID();
      return whole.replace(`{${param}}`, encodeURIComponent(id));
    },
  );
}

/** Required query parameters a list needs (a report's range). */
function queryFor(op: Operation): string {
  const required = op.params.filter((p) => p.in === "query" && p.required).map((p) => p.name);
  const values: Record<string, string> = { from: day(-30), to: day(1) };
  return required.length ? `?${required.map((name) => `${name}=${values[name] ?? ""}`).join("&")}` : "";
}

const seesB = (body: unknown) => {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return bTraces.filter((trace) => text.includes(trace));
};

describe("merchant-scoped credentials", () => {
  it("are keys or members naming one of the tenant's merchants", async () => {
    const other = await createTenant();
    const foreign = (
      await call("POST", "/merchants", { headers: other.admin, body: { code: "F", name: "F" } })
    ).body.data.id;
    for (const merchantId of [foreign, crypto.randomUUID()]) {
      const key = await call("POST", "/api-keys", {
        headers: tenant.admin,
        body: { name: "k", scopes: ["read:products"], merchantId },
      });
      expect(key.status).toBe(404);
      expect(key.body.errors).toEqual([`merchantId: merchant ${merchantId} not found`]);
    }
    const member = await newMember(tenant, "manager");
    const scoped = await call("PUT", `/users/${member.id}`, {
      headers: tenant.admin,
      body: { role: "manager", merchantId: a.merchantId },
    });
    expect(scoped.status).toBe(200);
    expect(scoped.body.data.merchantId).toBe(a.merchantId);
    const products = await call("GET", "/products", { headers: member.headers });
    expect(products.body.data.items.map((p: { id: string }) => p.id)).toEqual([a.productId]);
    expect((await call("GET", `/products/${b.products}`, { headers: member.headers })).status).toBe(404);
    const owner = await call("PUT", `/users/${member.id}`, {
      headers: tenant.admin,
      body: { role: "owner", merchantId: a.merchantId },
    });
    expect(owner.status).toBe(400);
    // Back to the whole tenant: B's product is there again.
    await call("PUT", `/users/${member.id}`, { headers: tenant.admin, body: { role: "manager" } });
    expect((await call("GET", `/products/${b.products}`, { headers: member.headers })).status).toBe(200);
  });
});

describe("GET /auth/me", () => {
  it("shows the merchant a key or a membership acts for, and null for the whole tenant", async () => {
    const key = await whoAmI(asA, "api_key");
    expect(key.apiKey.merchantId).toBe(a.merchantId);
    expect((await whoAmI(tenant.admin, "api_key")).apiKey.merchantId).toBeNull();
    const member = await newMember(tenant, "viewer");
    const membershipOf = async () =>
      (await whoAmI(member.headers, "user")).user.memberships.find((m) => m.tenantId === tenant.id);
    expect((await membershipOf())?.merchantId).toBeNull();
    await made(
      "scoping the member",
      call("PUT", `/users/${member.id}`, {
        headers: tenant.admin,
        body: { role: "viewer", merchantId: a.merchantId },
      }),
    );
    expect(await membershipOf()).toMatchObject({ role: "viewer", merchantId: a.merchantId });
    // Signing in answers the same memberships, so a web app knows the merchant from its session.
    const session = await call("POST", "/auth/login", {
      body: { email: member.email, password: member.password },
    });
    expect(session.body.data.user.memberships).toEqual([await membershipOf()]);
  });
});

describe("a merchant-scoped key", () => {
  // The walk, for a merchant's key (every scope but admin) and for a person invited to act for the merchant (an admin
  // session: it manages its merchant's own webhooks, reads its merchant's audit entries, and administers nothing else).
  it.each([
    ["a merchant's key", () => asA, false],
    ["an invited merchant member's session", () => asMemberOfA, true],
  ] as const)(
    "walks every operation as %s: 404 for B's ids, no write to B's rows, none of B's rows in any list",
    async (_who, headersOf, ownWebhooks) => {
      const headers = headersOf();
      const walked = operations().filter((op) => !notMerchants(op.path));
      expect(walked.length).toBeGreaterThan(40);
      const before = await bSnapshot();
      for (const op of walked) {
        const withIds = op.path.includes("{");
        const url = withIds ? withBIds(op.path) : `${op.path}${queryFor(op)}`;
        const body = op.method === "GET" || op.method === "DELETE" ? undefined : {};
        const res = await call(op.method, url, { headers, body });
        const what = `${op.method} ${url} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
        expect(seesB(res.body), what).toEqual([]);
        if (op.admin && !(ownWebhooks && merchantAdministers(op.path))) expect(res.status, what).toBe(403);
        else if (withIds && op.method === "GET") expect(res.status, what).toBe(404);
        else if (withIds) expect([400, 404], what).toContain(res.status);
        else if (op.method === "GET") expect(res.status, what).toBe(200);
      }
      expect(await bSnapshot()).toEqual(before);
    },
  );

  it("gets 404 for B's ids on writes with well-formed bodies", async () => {
    const writes: [Method, string, unknown][] = [
      ["PATCH", `/products/${b.products}`, { name: "taken" }],
      ["DELETE", `/products/${b.products}`, undefined],
      ["PATCH", `/orders/${b.orders}/status`, { status: "cancelled" }],
      ["POST", `/pick-lists/${b["pick-lists"]}/cancel`, {}],
      ["POST", `/shipments/${b.shipments}/cancel`, {}],
      ["DELETE", `/inventory/holds/${b.holds}`, undefined],
      [
        "POST",
        "/inventory/adjustments",
        { productId: b.products, locationId: crypto.randomUUID(), quantity: 1, reason: "x" },
      ],
      [
        "POST",
        "/orders/sales",
        {
          customerId: crypto.randomUUID(),
          shippingAddress: { street: "1", city: "c", zip: "1" },
          lines: [{ productId: b.products, quantity: 1, price: 1 }],
        },
      ],
      [
        "POST",
        "/inventory/holds",
        { productId: b.products, quantity: 1, expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
      ],
      ["POST", "/products", { sku: `X-${unique()}`, name: "x", merchantId: b.merchants }],
    ];
    const before = await bSnapshot();
    for (const [method, url, body] of writes) {
      const res = await call(method, url, { headers: asA, body });
      expect(res.status, `${method} ${url} ${JSON.stringify(res.body)}`).toBe(404);
    }
    expect(await bSnapshot()).toEqual(before);
    // Exports and imports run for the whole tenant: a merchant's credential starts none and sees none.
    const job = await call("POST", "/jobs", { headers: asA, body: { type: "products_export" } });
    expect(job.status).toBe(403);
    const tenantJob = await call("POST", "/jobs", {
      headers: tenant.admin,
      body: { type: "products_export" },
    });
    expect(tenantJob.status).toBe(201);
    expect((await call("GET", `/jobs/${tenantJob.body.data.id}`, { headers: asA })).status).toBe(404);
  });

  it("counts only its merchant's rows in totals and reports", async () => {
    const products = await call("GET", "/products", { headers: asA });
    expect(products.body.data.totalCount).toBe(1);
    const searched = await call("GET", "/products?search=a", { headers: asA });
    expect(searched.body.data.items.map((p: { id: string }) => p.id)).toEqual([a.productId]);
    const stock = await call("GET", "/inventory/stock", { headers: asA });
    expect(stock.body.data.items.map((s: { productId: string }) => s.productId)).toEqual([a.productId]);
    const orders = await call("GET", "/orders", { headers: asA });
    expect(orders.body.data.items.map((o: { id: string }) => o.id)).toEqual([a.orderId]);
    const valuation = await call("GET", "/reports/inventory-valuation?format=json", { headers: asA });
    expect(valuation.status).toBe(200);
    expect(JSON.stringify(valuation.body)).toContain(a.productId);
    const merchants = await call("GET", "/merchants", { headers: asA });
    expect(merchants.body.data.items.map((m: { id: string }) => m.id)).toEqual([a.merchantId]);
  });

  it("reads only its merchant's events, and its webhooks receive only those", async () => {
    const { received } = stubReceiver();
    const adminOfA = await call("POST", "/api-keys", {
      headers: tenant.admin,
      body: { name: "merchant A admin", scopes: ["admin"], merchantId: a.merchantId },
    });
    const asAdminOfA = { "x-api-key": adminOfA.body.data.key };
    // Its admin covers its own webhooks, never the tenant's administration.
    for (const path of ["/users", "/api-keys"] as const) {
      expect((await call("GET", path, { headers: asAdminOfA })).status, path).toBe(403);
    }
    const post = await call("POST", "/merchants", { headers: asAdminOfA, body: { code: "X", name: "x" } });
    expect(post.status).toBe(403);
    const tenantHooks = await call("GET", "/webhooks", { headers: asAdminOfA });
    expect(tenantHooks.body.data.items).toEqual([]);
    const hook = await call("POST", "/webhooks", {
      headers: asAdminOfA,
      body: { url: "https://hooks.example.com/merchant-a", events: ["*"] },
    });
    expect(hook.status).toBe(201);
    await adjustStock(tenant, b.products as string, (await firstBin()) ?? "", 1);
    await adjustStock(tenant, a.productId, (await firstBin()) ?? "", 1);
    const feed = await call("GET", "/events?limit=100", { headers: asA });
    expect(feed.status).toBe(200);
    expect(seesB(feed.body)).toEqual([]);
    expect(JSON.stringify(feed.body)).toContain(a.productId);
    const toA = () => received.filter((r) => r.url === "https://hooks.example.com/merchant-a");
    const toTenant = () => received.filter((r) => r.url === "https://hooks.example.com/tenant");
    // The tenant's own subscription gets B's adjustment: A's, by then, has had its chance at it too.
    await expect
      .poll(() => toTenant().some((r) => r.body.includes(b.products as string)), { timeout: 5000 })
      .toBe(true);
    await expect.poll(() => toA().some((r) => r.body.includes(a.productId)), { timeout: 5000 }).toBe(true);
    expect(
      seesB(
        toA()
          .map((r) => r.body)
          .join("\n"),
      ),
    ).toEqual([]);
  });
});

async function firstBin() {
  const stock = await call("GET", `/inventory/stock?productId=${a.productId}`, { headers: tenant.admin });
  return levelsIn(stock.body.data)[0]?.locationId;
}

/** B's rows as the tenant's admin reads them. */
async function bSnapshot() {
  const reads = await Promise.all(
    [
      `/products/${b.products}`,
      `/orders/${b.orders}`,
      `/inventory/stock?productId=${b.products}`,
      `/inventory/holds/${b.holds}`,
      `/pick-lists/${b["pick-lists"]}`,
      `/shipments/${b.shipments}`,
      `/lots/${b.lots}`,
      `/merchants/${b.merchants}`,
      `/billing/invoices/${b.invoices}`,
    ].map((url) => call("GET", url, { headers: tenant.admin })),
  );
  return reads.map((res) => ({ status: res.status, data: res.body.data }));
}

describe("pick lists and counts", () => {
  it("are a merchant's in its feed and its webhooks only when every order or product on them is its own", async () => {
    const { received } = stubReceiver();
    const t = await createTenant();
    const newMerchant = async (code: string) =>
      (await made(code, call("POST", "/merchants", { headers: t.admin, body: { code, name: code } }))).body
        .data.id as string;
    const [ma, mb] = [await newMerchant("A"), await newMerchant("B")];
    const warehouse = await createWarehouse(t);
    const bin = await createLocation(t, warehouse.id);
    const [pa, pb] = [await createProduct(t, { merchantId: ma }), await createProduct(t, { merchantId: mb })];
    await adjustStock(t, pa.id, bin.id, 20);
    await adjustStock(t, pb.id, bin.id, 20);
    const keyOfA = await made(
      "A's key",
      call("POST", "/api-keys", { headers: t.admin, body: { name: "A", scopes: ["admin"], merchantId: ma } }),
    );
    const asMerchantA = { "x-api-key": keyOfA.body.data.key };
    for (const [headers, url] of [
      [asMerchantA, "https://hooks.example.com/a"],
      [t.admin, "https://hooks.example.com/all"],
    ] as const) {
      await made(url, call("POST", "/webhooks", { headers, body: { url, events: ["*"] } }));
    }
    const confirmedOrder = async (productId: string) => {
      const order = await salesOrder(t, [{ productId, quantity: 1 }], { warehouseId: warehouse.id });
      await setStatus(t, order.body.data.id, { status: "confirmed" });
      return order.body.data.id as string;
    };
    const pickList = async (orderIds: string[]) =>
      (
        await made(
          "pick list",
          call("POST", "/pick-lists", { headers: t.admin, body: { warehouseId: warehouse.id, orderIds } }),
        )
      ).body.data.id as string;
    // A's own list, cancelled; A's own list, picked to completion; a wave of A's and B's orders.
    const cancelled = await pickList([await confirmedOrder(pa.id)]);
    await made("cancel", call("POST", `/pick-lists/${cancelled}/cancel`, { headers: t.admin, body: {} }));
    const completed = await pickList([await confirmedOrder(pa.id)]);
    await made(
      "pick",
      call("POST", `/pick-lists/${completed}/picks`, {
        headers: t.admin,
        body: { location: bin.code, product: pa.sku, quantity: 1 },
      }),
    );
    const wave = await pickList([await confirmedOrder(pa.id), await confirmedOrder(pb.id)]);
    // A count of A's product only, one of A's and B's, and one of the whole warehouse.
    const approvedCount = async (scope: Record<string, unknown>) => {
      const count = await made(
        "count",
        call("POST", "/inventory/counts", {
          headers: t.admin,
          body: { warehouseId: warehouse.id, ...scope },
        }),
      );
      const lines = count.body.data.lines.map(
        (l: { productId: string; locationId: string; expected: number }) => ({
          productId: l.productId,
          locationId: l.locationId,
          counted: l.expected,
        }),
      );
      const id = count.body.data.id as string;
      await made(
        "record",
        call("PUT", `/inventory/counts/${id}/lines`, { headers: t.admin, body: { lines } }),
      );
      for (const action of ["submit", "approve"])
        await made(action, call("POST", `/inventory/counts/${id}/${action}`, { headers: t.admin }));
      return id;
    };
    const ownCount = await approvedCount({ productIds: [pa.id] });
    const mixedCount = await approvedCount({ productIds: [pa.id, pb.id] });
    const wholeCount = await approvedCount({});

    const about = (types: string[], events: { type: string; data: unknown }[]) =>
      events.filter((e) => types.includes(e.type)).map((e) => `${e.type} ${(e.data as { id: string }).id}`);
    const types = [
      "pick_list.created",
      "pick_list.cancelled",
      "pick_list.completed",
      "inventory.count_approved",
    ];
    const everything = [
      `pick_list.created ${cancelled}`,
      `pick_list.cancelled ${cancelled}`,
      `pick_list.created ${completed}`,
      `pick_list.completed ${completed}`,
      `pick_list.created ${wave}`,
      `inventory.count_approved ${ownCount}`,
      `inventory.count_approved ${mixedCount}`,
      `inventory.count_approved ${wholeCount}`,
    ];
    const merchantAs = [0, 1, 2, 3, 5].map((i) => everything[i]);
    const feed = (headers: Record<string, string>) =>
      call("GET", `/events?limit=100&type=${types.join(",")}`, { headers }).then((res) => {
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return about(types, res.body.data.items);
      });
    expect(await feed(t.admin)).toEqual(everything);
    expect(await feed(asMerchantA)).toEqual(merchantAs);
    // What A's feed shows is exactly what A may read.
    for (const [path, visible] of [
      [`/pick-lists/${completed}`, 200],
      [`/pick-lists/${wave}`, 404],
      [`/inventory/counts/${ownCount}`, 200],
      [`/inventory/counts/${mixedCount}`, 404],
      [`/inventory/counts/${wholeCount}`, 404],
    ] as const) {
      expect((await call("GET", path, { headers: asMerchantA })).status, path).toBe(visible);
    }

    const deliveredTo = (url: string) =>
      about(
        types,
        received.filter((r) => r.url === url).map((r) => JSON.parse(r.body)),
      ).sort();
    await expect
      .poll(() => deliveredTo("https://hooks.example.com/all"), { timeout: 10_000 })
      .toEqual([...everything].sort());
    await expect
      .poll(() => deliveredTo("https://hooks.example.com/a"), { timeout: 10_000 })
      .toEqual([...merchantAs].sort());
  });
});
