import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openConsistencyToken, sealConsistencyToken } from "../src/db/consistency-token";
import { createProduct, createTenant } from "./support/builders";
import { BASE, call, fetchApi } from "./support/http";
import { servedDocument } from "./support/openapi";

// Reads and writes run in a D1 session; the response's Consistency-Token is its bookmark (with the shard),
// sealed for the tenant. Local D1 has no replicas: these tests show the token's round trip, not a replica serving it.

const KEY = env.WEBHOOK_SECRET_KEY;
const bytesOf = (token: string) => atob(token.replaceAll("-", "+").replaceAll("_", "/"));

describe("Consistency-Token", () => {
  it("is returned on writes and reads, and a later write's token is at least as fresh", async () => {
    const tenant = await createTenant({ shard: "SHARD_1" });
    const write = await call("POST", "/products", {
      headers: tenant.admin,
      body: { sku: `CT-${crypto.randomUUID()}`, name: "Token" },
    });
    expect(write.status).toBe(201);
    const written = write.headers.get("Consistency-Token");
    expect(written).toBeTruthy();
    const read = await call("GET", "/products", { headers: tenant.admin });
    const readToken = read.headers.get("Consistency-Token");
    expect(readToken).toBeTruthy();
    const [a, b] = await Promise.all(
      [written, readToken].map((token) => openConsistencyToken(KEY, tenant.id, token ?? "")),
    );
    expect(a?.shard).toBe("SHARD_1");
    // Bookmarks sort oldest to newest.
    expect((b?.bookmark ?? "") >= (a?.bookmark ?? "")).toBe(true);
  });

  it("is accepted back: the read sees the write it names", async () => {
    const tenant = await createTenant();
    const product = await call("POST", "/products", {
      headers: tenant.admin,
      body: { sku: `CT-${crypto.randomUUID()}`, name: "Fresh" },
    });
    const token = product.headers.get("Consistency-Token") ?? "";
    const read = await call("GET", `/products/${product.body.data.id}`, {
      headers: { ...tenant.admin, "Consistency-Token": token },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get("Consistency-Token")).toBeTruthy();
  });

  it("of another shard (the tenant moved since) is ignored: the request reads the primary", async () => {
    const tenant = await createTenant({ shard: "SHARD_0" });
    await createProduct(tenant);
    const elsewhere = await sealConsistencyToken(KEY, tenant.id, {
      shard: "SHARD_1",
      bookmark: "00000000-00000001-00000000-00000000000000000000000000000000",
    });
    const read = await call("GET", "/products", {
      headers: { ...tenant.admin, "Consistency-Token": elsewhere },
    });
    expect(read.status).toBe(200);
    expect(read.body.data.items).toHaveLength(1);
  });

  it("answers 400 to a malformed token, and changes nothing", async () => {
    const tenant = await createTenant();
    for (const bad of ["garbage", "", btoa("SHARD_0.not-a-bookmark"), "x".repeat(500)]) {
      const res = await call("POST", "/products", {
        headers: { ...tenant.admin, "Consistency-Token": bad },
        body: { sku: `BAD-${crypto.randomUUID()}`, name: "Never" },
      });
      expect(res.status, bad).toBe(400);
      expect(res.body.errors?.[0]).toContain("Consistency-Token");
    }
    expect((await call("GET", "/products", { headers: tenant.admin })).body.data.items).toHaveLength(0);
  });

  it("is opaque: it names no shard and no bookmark, and no two answers carry the same token", async () => {
    const tokens: string[] = [];
    for (const shard of ["SHARD_0", "SHARD_1"]) {
      const tenant = await createTenant({ shard });
      await createProduct(tenant);
      for (let i = 0; i < 2; i++) {
        const read = await call("GET", "/products", { headers: tenant.admin });
        tokens.push(read.headers.get("Consistency-Token") ?? "");
        const opened = await openConsistencyToken(KEY, tenant.id, tokens.at(-1));
        expect(opened?.shard).toBe(shard);
        expect(bytesOf(tokens.at(-1) ?? "")).not.toContain(opened?.bookmark.slice(0, 17));
      }
    }
    for (const token of tokens) expect(bytesOf(token)).not.toMatch(/SHARD/);
    // An unchanged bookmark still gives a new token: equal tokens would tell that the shard saw no commit.
    expect(new Set(tokens).size).toBe(tokens.length);
    // One length whatever the shard.
    expect(new Set(tokens.map((token) => token.length)).size).toBe(1);
  });

  it("is bound to its tenant: another tenant's token is a 400, as an altered one is, and changes nothing", async () => {
    const [owner, neighbour] = [
      await createTenant({ shard: "SHARD_0" }),
      await createTenant({ shard: "SHARD_0" }),
    ];
    const written = await call("POST", "/products", {
      headers: owner.admin,
      body: { sku: `CT-${crypto.randomUUID()}`, name: "Mine" },
    });
    const token = written.headers.get("Consistency-Token") ?? "";
    const last = token.at(-2) === "A" ? "B" : "A";
    const altered = `${token.slice(0, -2)}${last}${token.at(-1)}`;
    const refusals = [];
    for (const [tenant, sent] of [
      [neighbour, token],
      [owner, altered],
    ] as const) {
      const res = await call("POST", "/products", {
        headers: { ...tenant.admin, "Consistency-Token": sent },
        body: { sku: `CT-${crypto.randomUUID()}`, name: "Never" },
      });
      expect(res.status).toBe(400);
      expect(res.headers.get("Consistency-Token")).toBeNull();
      refusals.push({ message: res.body.message, errors: res.body.errors });
    }
    expect(refusals[0]).toEqual(refusals[1]);
    expect((await call("GET", "/products", { headers: neighbour.admin })).body.data.items).toHaveLength(0);
    const read = await call("GET", "/products", { headers: { ...owner.admin, "Consistency-Token": token } });
    expect(read.body.data.items).toHaveLength(1);
  });

  it("issued before tokens were sealed is read as none, and the answer carries a sealed one", async () => {
    const tenant = await createTenant({ shard: "SHARD_0" });
    const unsealed = btoa("SHARD_0.00000000-00000001-00000000-00000000000000000000000000000000")
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replace(/=+$/, "");
    const read = await call("GET", "/products", {
      headers: { ...tenant.admin, "Consistency-Token": unsealed },
    });
    expect(read.status).toBe(200);
    const token = read.headers.get("Consistency-Token") ?? "";
    expect((await openConsistencyToken(KEY, tenant.id, token))?.shard).toBe("SHARD_0");
  });

  it("is documented on every tenant operation and exposed to browsers", async () => {
    const doc = await servedDocument();
    const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops));
    const tenantOps = operations.filter((op) => op["x-required-scopes"] !== undefined);
    expect(tenantOps.length).toBeGreaterThan(20);
    for (const op of tenantOps) {
      expect(op.parameters?.map((p) => p.name)).toContain("Consistency-Token");
      for (const response of Object.values(op.responses)) {
        const resolved = response.headers ?? {};
        expect(Object.keys(resolved)).toContain("Consistency-Token");
      }
    }
    const preflight = await fetchApi(
      new Request(`${BASE}/products`, {
        method: "OPTIONS",
        headers: { Origin: "https://app.example.com", "Access-Control-Request-Method": "GET" },
      }),
    );
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toContain("Consistency-Token");
    const read = await call("GET", "/health", { headers: { Origin: "https://app.example.com" } });
    expect(read.headers.get("Access-Control-Expose-Headers")).toContain("Consistency-Token");
  });
});
