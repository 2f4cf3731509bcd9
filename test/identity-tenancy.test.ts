import { beforeAll, describe, expect, it } from "vitest";
import {
  createTenant,
  loginHeaders,
  PLATFORM,
  scopedKey,
  type TestTenant,
  userWithRole,
  whoAmI,
} from "./support/builders";
import { call } from "./support/http";
import { type OpenApiDocument, servedDocument } from "./support/openapi";

let tenant: TestTenant;
let ownerJwt: string;
beforeAll(async () => {
  tenant = await createTenant();
  ownerJwt = (await loginHeaders(tenant, tenant.owner.email, tenant.owner.password)).authorization;
});

const listOrders = (headers: Record<string, string>) => call("GET", "/orders", { headers });

describe("X-Tenant-Id", () => {
  it("is required with a JWT (400) and must be a UUID (400)", async () => {
    const missing = await listOrders({ authorization: ownerJwt });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual(["X-Tenant-Id: is required"]);
    const malformed = await listOrders({ authorization: ownerJwt, "x-tenant-id": "tenant-1" });
    expect(malformed.status).toBe(400);
  });

  it("names a tenant the user belongs to: unknown or foreign tenants are 403", async () => {
    expect((await listOrders({ authorization: ownerJwt, "x-tenant-id": tenant.id })).status).toBe(200);
    const unknown = await listOrders({ authorization: ownerJwt, "x-tenant-id": crypto.randomUUID() });
    expect(unknown.status).toBe(403);
    const other = await createTenant();
    const foreign = await listOrders({ authorization: ownerJwt, "x-tenant-id": other.id });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual(unknown.body);
  });

  it("is implied by an API key; a different one is 403", async () => {
    expect((await listOrders(tenant.admin)).status).toBe(200);
    expect((await listOrders({ ...tenant.admin, "x-tenant-id": tenant.id })).status).toBe(200);
    const mismatch = await listOrders({ ...tenant.admin, "x-tenant-id": crypto.randomUUID() });
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.message).toMatch(/does not match/);
  });

  it("a suspended tenant is 403 for keys and users at once, but not for the platform operator", async () => {
    const suspended = await createTenant();
    const jwt = await loginHeaders(suspended, suspended.owner.email, suspended.owner.password);
    const suspend = await call("PATCH", `/platform/tenants/${suspended.id}`, {
      headers: PLATFORM,
      body: { status: "suspended" },
    });
    expect(suspend.status).toBe(200);
    expect((await listOrders(suspended.admin)).status).toBe(403);
    expect((await listOrders(jwt)).status).toBe(403);
    const resume = await call("PATCH", `/platform/tenants/${suspended.id}`, {
      headers: PLATFORM,
      body: { status: "active" },
    });
    expect(resume.status).toBe(200);
    expect((await listOrders(suspended.admin)).status).toBe(200);
  });
});

describe("roles map to scopes", () => {
  // One route per scope that a role may or may not hold; an allowed read is 200, an allowed body-less write 400.
  const probes = {
    "read:products": () => ["GET", "/products"] as const,
    "write:products": () => ["POST", "/products"] as const,
    "read:inventory": () => ["GET", "/reports/low-stock"] as const,
    "write:inventory": () => ["POST", "/inventory/adjustments"] as const,
    "read:orders": () => ["GET", "/orders"] as const,
    "write:orders": () => ["POST", "/orders/sales"] as const,
    admin: () => ["GET", "/users"] as const,
  };
  const reads = ["read:products", "read:inventory", "read:orders"];
  const allowed: Record<string, string[]> = {
    owner: Object.keys(probes),
    admin: Object.keys(probes),
    manager: [...reads, "write:products", "write:inventory", "write:orders"],
    operator: [...reads, "write:inventory", "write:orders"],
    viewer: reads,
  };

  for (const role of Object.keys(allowed)) {
    it(`${role}`, async () => {
      const headers = await userWithRole(tenant, role);
      for (const [scope, probe] of Object.entries(probes)) {
        const [method, path] = probe();
        const res = await call(method, path, { headers, ...(method === "POST" ? { body: {} } : {}) });
        if (allowed[role]!.includes(scope)) expect([200, 400], `${role} ${scope}`).toContain(res.status);
        else {
          expect(res.status, `${role} ${scope}`).toBe(403);
          expect(res.body.message).toBe(`This request needs the ${scope} scope`);
        }
      }
    });
  }

  it("write:X implies read:X for keys, and admin implies everything", async () => {
    const writer = await scopedKey(tenant, ["write:orders"]);
    expect((await listOrders(writer)).status).toBe(200);
    expect((await call("GET", "/reports/low-stock", { headers: writer })).status).toBe(403);
    expect((await call("GET", "/reports/low-stock", { headers: tenant.admin })).status).not.toBe(403);
  });

  it("a removed member loses access on the next request", async () => {
    const member = await userWithRole(tenant, "manager");
    expect((await listOrders(member)).status).toBe(200);
    const { user } = await whoAmI({ authorization: member.authorization! }, "user");
    const removed = await call("DELETE", `/users/${user.id}`, { headers: tenant.admin });
    expect(removed.status).toBe(200);
    expect((await listOrders(member)).status).toBe(403);
  });
});

describe("platform endpoints", () => {
  it("refuse without the operator token, and with a tenant's key", async () => {
    expect((await call("GET", "/platform/tenants")).status).toBe(401);
    expect((await call("GET", "/platform/tenants", { headers: tenant.admin })).status).toBe(401);
    expect(
      (await call("GET", "/platform/tenants", { headers: { authorization: "Bearer dev-only-wrong" } }))
        .status,
    ).toBe(401);
    expect((await call("GET", "/platform/tenants", { headers: PLATFORM })).status).toBe(200);
  });
});

describe("OpenAPI document", () => {
  /** The security of an operation named like "get /users/{id}". */
  const securityOf = (paths: OpenApiDocument["paths"], operation: string) => {
    const [method = "", path = ""] = operation.split(" ");
    return paths[`/api/v1${path}`]?.[method]?.security;
  };

  it("lists every identity endpoint with its security and scope", async () => {
    const { paths } = await servedDocument();
    const expected: Record<string, Record<string, string[]>[]> = {
      "get /api-keys": [{ BearerAuth: ["admin"] }, { ApiKeyAuth: ["admin"] }],
      "post /api-keys": [{ BearerAuth: ["admin"] }, { ApiKeyAuth: ["admin"] }],
      "delete /api-keys/{id}": [{ BearerAuth: ["admin"] }, { ApiKeyAuth: ["admin"] }],
      "get /users": [{ BearerAuth: ["admin"] }, { ApiKeyAuth: ["admin"] }],
      "post /users": [{ BearerAuth: ["admin"] }, { ApiKeyAuth: ["admin"] }],
      "get /users/{id}": [{ BearerAuth: ["admin"] }, { ApiKeyAuth: ["admin"] }],
      "put /users/{id}": [{ BearerAuth: ["admin"] }, { ApiKeyAuth: ["admin"] }],
      "delete /users/{id}": [{ BearerAuth: ["admin"] }, { ApiKeyAuth: ["admin"] }],
      "get /auth/me": [{ BearerAuth: [] }, { ApiKeyAuth: [] }],
      "post /auth/login": [],
      "post /auth/refresh": [],
      "post /auth/logout": [],
      "get /platform/tenants": [{ PlatformToken: [] }],
      "post /platform/tenants": [{ PlatformToken: [] }],
      "patch /platform/tenants/{id}": [{ PlatformToken: [] }],
    };
    for (const [operation, security] of Object.entries(expected)) {
      expect(securityOf(paths, operation), operation).toEqual(security);
    }
  });
});
