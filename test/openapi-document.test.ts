import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type TestTenant, unique } from "./support/builders";
import { BASE, call } from "./support/http";
import {
  type DocumentedOperation,
  type OpenApiDocument,
  requestRefusal,
  type SchemaObject,
  servedDocument,
} from "./support/openapi";

// The served document says what the API enforces on requests and sends on responses (issue 27, items 12, 13
// and 16). The suite's helpers compare every request and answer with it (test/support/openapi.ts); these
// cases name the gaps the document had.

let doc: OpenApiDocument;
let tenant: TestTenant;
beforeAll(async () => {
  doc = await servedDocument();
  tenant = await createTenant({ plan: "starter" });
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );

const request = (path: string, init: RequestInit & { json?: unknown } = {}) =>
  new Request(`${BASE}${path}`, {
    ...init,
    ...(init.json === undefined
      ? {}
      : { body: JSON.stringify(init.json), headers: { "content-type": "application/json" } }),
  });

describe("request schemas are as strict as the API's validators", () => {
  it("sort is an enum on every list that sorts, and both refuse an unknown field", async () => {
    const sorted = operations().filter(({ operation }) =>
      (operation.parameters ?? []).some((p) => p.name === "sort" && p.in === "query"),
    );
    expect(sorted.map(({ path }) => path.replace("/api/v1", "")).sort()).toEqual([
      "/api-keys",
      "/locations",
      "/merchants",
      "/orders",
      "/platform/tenants",
      "/products",
      "/users",
      "/warehouses",
    ]);
    for (const { path, operation } of sorted) {
      const sort = operation.parameters?.find((p) => p.name === "sort")?.schema;
      expect(sort?.enum, path).toContain(`-${String(sort?.enum?.[0])}`);
      if (path.includes("platform")) continue;
      const url = `${path.replace("/api/v1", "")}?sort=bogus`;
      const res = await call("GET", url, { headers: tenant.admin });
      expect(res.status, url).toBe(400);
      expect(await requestRefusal(request(url)), url).toMatch(/query parameter sort/);
    }
  });

  it("a UUID with a variant the API refuses is refused by the document too", async () => {
    const badVariant = "01939a4e-1c2d-7e3f-0a1b-2c3d4e5f6a7b";
    const res = await call("GET", `/products/${badVariant}`, { headers: tenant.admin });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(["id: must be a UUID"]);
    expect(await requestRefusal(request(`/products/${badVariant}`))).toMatch(/path parameter id/);
    expect(await requestRefusal(request(`/products/${crypto.randomUUID()}`))).toBeUndefined();
  });

  it("webhook events, a count's one scope, quantities and pages are bounded in the document", async () => {
    const refusals = {
      events: await requestRefusal(
        request("/webhooks", {
          method: "POST",
          json: { url: "https://erp.example.com/h", events: ["order.*"] },
        }),
      ),
      bothScopes: await requestRefusal(
        request("/inventory/counts", {
          method: "POST",
          json: { warehouseId: crypto.randomUUID(), locationIds: [crypto.randomUUID()] },
        }),
      ),
      noScope: await requestRefusal(request("/inventory/counts", { method: "POST", json: {} })),
      zeroAdjustment: await requestRefusal(
        request("/inventory/adjustments", {
          method: "POST",
          json: { productId: crypto.randomUUID(), locationId: crypto.randomUUID(), quantity: 0, reason: "x" },
        }),
      ),
      hugeAdjustment: await requestRefusal(
        request("/inventory/adjustments", {
          method: "POST",
          json: {
            productId: crypto.randomUUID(),
            locationId: crypto.randomUUID(),
            quantity: 2e9,
            reason: "x",
          },
        }),
      ),
      page: await requestRefusal(request("/products?page=1000001")),
    };
    for (const [what, refusal] of Object.entries(refusals)) expect(refusal, what).toBeDefined();
    const oneScope = request("/inventory/counts", {
      method: "POST",
      json: { warehouseId: crypto.randomUUID() },
    });
    expect(await requestRefusal(oneScope)).toBeUndefined();
    // The API agrees: the same requests are 400s (the helper fails any disagreement on the way).
    const page = await call("GET", "/products?page=1000001", { headers: tenant.admin });
    expect(page.status).toBe(400);
    expect(page.body.errors).toEqual(["page: must be an integer between 1 and 1000000"]);
    const events = await call("POST", "/webhooks", {
      headers: tenant.admin,
      body: { url: "https://erp.example.com/h", events: ["order.*"] },
    });
    expect(events.status).toBe(400);
  });

  it("serial numbers are unique and an import has a row, in the document as in the API (item 17)", async () => {
    const id = () => crypto.randomUUID();
    const twice = ["SN-1", "SN-1"];
    const refusals = {
      adjustment: request("/inventory/adjustments", {
        method: "POST",
        json: { productId: id(), locationId: id(), quantity: 2, reason: "x", serialNumbers: twice },
      }),
      transfer: request("/inventory/transfers", {
        method: "POST",
        json: {
          productId: id(),
          fromLocationId: id(),
          toLocationId: id(),
          quantity: 2,
          serialNumbers: twice,
        },
      }),
      receipt: request(`/orders/${id()}/receive`, {
        method: "POST",
        json: { lines: [{ lineId: id(), quantity: 2, locationId: id(), serialNumbers: twice }] },
      }),
      shipment: request(`/orders/${id()}/status`, {
        method: "PATCH",
        json: { status: "shipped", lines: [{ lineId: id(), serialNumbers: twice }] },
      }),
      count: request(`/inventory/counts/${id()}/lines`, {
        method: "PUT",
        json: { lines: [{ productId: id(), locationId: id(), counted: 2, serialNumbers: twice }] },
      }),
      emptyImport: request("/products/import", { method: "POST", json: [] }),
    };
    for (const [what, sent] of Object.entries(refusals)) {
      expect(await requestRefusal(sent), what).toMatch(/duplicate items|must NOT have fewer than 1 items/);
    }
    // The API agrees (the helper fails any disagreement on the way): a repeated serial and an empty import are 400s.
    const empty = await call("POST", "/products/import", { headers: tenant.admin, body: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual(["body: no rows to import"]);
  });
});

const declared = (operation: DocumentedOperation, status: string) =>
  Object.keys(operation.responses[status]?.headers ?? {});

describe("headers are documented where they are sent", () => {
  it("every response declares X-Request-Id, every error X-Error-Code, every counted response the limits", () => {
    const gaps: string[] = [];
    for (const { path, method, operation } of operations()) {
      // Counted by a tenant's rate limit: the operations an API key may call.
      const counted = (operation.security ?? []).some((requirement) => "ApiKeyAuth" in requirement);
      const idempotent = (operation.parameters ?? []).some((p) => p.name === "Idempotency-Key");
      for (const status of Object.keys(operation.responses)) {
        const headers = declared(operation, status);
        const expected = [
          "X-Request-Id",
          ...(Number(status) >= 400 ? ["X-Error-Code"] : []),
          ...(counted ? ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"] : []),
          ...(status === "201" ? ["Location"] : []),
          ...(idempotent ? ["Idempotent-Replayed"] : []),
        ];
        for (const name of expected.filter((n) => !headers.includes(n))) {
          gaps.push(`${method.toUpperCase()} ${path} ${status} ${name}`);
        }
      }
    }
    expect(gaps).toEqual([]);
  });

  it("a counted success carries the limits, a replay says so, a 201 its Location: all declared", async () => {
    const key = unique();
    const body = { code: `W-${key}`.slice(0, 32), name: "Replayed" };
    const headers = { ...tenant.admin, "idempotency-key": key };
    const first = await call("POST", "/warehouses", { headers, body });
    expect(first.status).toBe(201);
    expect(first.headers.get("location")).toBe(`/api/v1/warehouses/${first.body.data.id}`);
    const replay = await call("POST", "/warehouses", { headers, body });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const list = await call("GET", "/warehouses", { headers: tenant.admin });
    expect(list.headers.get("x-ratelimit-limit")).toBe("60");
    expect(list.headers.get("x-request-id")).toBeTruthy();
  });
});

/** Every object property of the document's schemas, with where it is. */
function properties(
  node: unknown,
  at: string,
  visit: (name: string, schema: SchemaObject, at: string) => void,
) {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) properties(item, `${at}/${i}`, visit);
  } else if (node && typeof node === "object") {
    for (const [name, schema] of Object.entries((node as SchemaObject).properties ?? {}))
      visit(name, schema, at);
    for (const [key, value] of Object.entries(node)) properties(value, `${at}/${key}`, visit);
  }
}

describe("housekeeping", () => {
  it("declares every tag it uses and describes every operation", () => {
    const tags = new Set(((doc as { tags?: { name: string }[] }).tags ?? []).map((t) => t.name));
    const undeclared = operations().flatMap(({ operation }) =>
      ((operation as { tags?: string[] }).tags ?? []).filter((t) => !tags.has(t)),
    );
    expect([...new Set(undeclared)]).toEqual([]);
    const undescribed = operations()
      .filter(({ operation }) => !(operation as { description?: string }).description?.trim())
      .map(({ method, path }) => `${method} ${path}`);
    expect(undescribed).toEqual([]);
  });

  it("every timestamp is format date-time (dates are format date), every path parameter has an example", () => {
    const loose: string[] = [];
    properties(doc, "", (name, schema, at) => {
      if (!/(At|Since|^timestamp|^asOf)$/.test(name) || "$ref" in schema) return;
      if (schema.format !== "date-time" && schema.format !== "date") loose.push(`${at} ${name}`);
    });
    expect(loose).toEqual([]);
    const bare = operations().flatMap(({ method, path, operation }) =>
      (operation.parameters ?? [])
        .filter((p) => p.in === "path" && (p as { example?: unknown }).example === undefined)
        .filter((p) => p.schema?.example === undefined)
        .map((p) => `${method} ${path} ${p.name}`),
    );
    expect(bare).toEqual([]);
  });

  it("accepting an invitation takes an optional bearer token", () => {
    const accept = doc.paths["/api/v1/auth/invitations/accept"]?.post;
    expect(accept?.security).toEqual([{}, { BearerAuth: [] }]);
  });
});
