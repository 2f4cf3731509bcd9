import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http";
import { createTenant, PLATFORM, type TestTenant } from "./support/tenants";

// Every operation in the OpenAPI document, fed malformed ids, malformed query parameters and
// arbitrary JSON bodies: whatever it is sent, the answer is a 4xx in the envelope, never a 500.

interface Operation {
  method: string;
  path: string;
}

let tenant: TestTenant;
let operations: Operation[];
beforeAll(async () => {
  tenant = await createTenant();
  const doc = (await call("GET", "/openapi.json")).body as unknown as { paths: Record<string, object> };
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({
      method: method.toUpperCase(),
      path: path.replace(/^\/api\/v1/, ""),
    })),
  );
});

const headersFor = (path: string) => (path.startsWith("/platform") ? PLATFORM : tenant.admin);

describe("bad input never causes a 500", () => {
  it("covers the whole API", () => {
    expect(operations.length).toBeGreaterThan(50);
  });

  it("malformed and unknown ids, and junk query parameters", async () => {
    for (const { method, path } of operations) {
      for (const id of ["not-a-uuid", crypto.randomUUID(), "%00", "1 or 1=1"]) {
        const url = `${path.replace(/\{[^}]+\}/g, encodeURIComponent(id))}?page=-1&pageSize=abc&sort=%27&from=x&to=y&status=%3Cscript%3E&format=xml`;
        const body = method === "GET" || method === "DELETE" ? undefined : {};
        const res = await call(method, url, { headers: headersFor(path), body });
        expect(res.status, `${method} ${url}`).toBeLessThan(500);
        expect(res.status, `${method} ${url}`).toBeGreaterThanOrEqual(200);
        if (res.status >= 400) expect(res.body.success, `${method} ${url}`).toBe(false);
      }
    }
  });

  it("arbitrary JSON bodies on every write", async () => {
    const writes = () => operations.filter((o) => o.method !== "GET" && o.method !== "DELETE");
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (value) => {
        for (const { method, path } of writes()) {
          const url = path.replace(/\{[^}]+\}/g, crypto.randomUUID());
          const res = await call(method, url, {
            headers: headersFor(path),
            body: JSON.stringify(value) ?? "null",
          });
          expect(res.status, `${method} ${url} ${JSON.stringify(value)}`).toBeLessThan(500);
        }
      }),
      { numRuns: 15 },
    );
  });

  it("bodies that are not JSON, or not what the route reads", async () => {
    for (const { method, path } of operations.filter((o) => o.method !== "GET")) {
      const url = path.replace(/\{[^}]+\}/g, crypto.randomUUID());
      for (const [contentType, body] of [
        ["application/json", "{not json"],
        ["application/json", ""],
        ["text/plain", "hello"],
        ["text/csv", 'sku,name\n"unterminated'],
      ] as const) {
        const res = await call(method, url, {
          headers: { ...headersFor(path), "content-type": contentType },
          body,
        });
        expect(res.status, `${method} ${url} ${contentType} ${body}`).toBeLessThan(500);
      }
    }
  });
});
