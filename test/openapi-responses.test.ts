import { describe, expect, it } from "vitest";
import { BASE } from "./support/http";
import { documentProblem } from "./support/openapi";

// The shared helpers check every answer against the served OpenAPI document (test/support/openapi.ts).
// These cases show the check refuses what the document does not promise, with made-up answers.

const health = { status: "ok", version: "1.0.0", time: "2026-11-01T00:00:00.000Z", database: "ok" };
const envelope = (data: unknown) => ({ success: true, data, message: null, errors: null });

function problem(
  method: string,
  path: string,
  status: number,
  body: unknown,
  contentType = "application/json",
) {
  const response = new Response(JSON.stringify(body), { status, headers: { "content-type": contentType } });
  return documentProblem(new Request(`${BASE}${path}`, { method }), response, body);
}

describe("responses are checked against the served OpenAPI document", () => {
  it("accepts an answer the document describes", async () => {
    expect(await problem("GET", "/health", 200, envelope(health))).toBeUndefined();
    expect(
      await problem("GET", "/health", 500, { success: false, data: null, message: "x", errors: ["x"] }),
    ).toBeUndefined();
  });

  it("refuses a status the operation does not document", async () => {
    expect(await problem("GET", "/health", 418, envelope(health))).toMatch(
      /status 418 is not documented for GET \/api\/v1\/health/,
    );
  });

  it("refuses a body that misses a field, has the wrong type, or carries an undocumented field", async () => {
    const { database: _, ...missing } = health;
    expect(await problem("GET", "/health", 200, envelope(missing))).toMatch(
      /must have required property 'database'/,
    );
    expect(await problem("GET", "/health", 200, envelope({ ...health, time: "yesterday" }))).toMatch(
      /body\/data\/time must match format "date-time"/,
    );
    expect(await problem("GET", "/health", 200, envelope({ ...health, extra: 1 }))).toMatch(
      /must NOT have unevaluated properties \(extra\)/,
    );
  });

  it("refuses a content type the status does not declare", async () => {
    expect(await problem("GET", "/health", 200, envelope(health), "text/csv")).toMatch(
      /answered "text\/csv"; the document declares application\/json/,
    );
  });

  it("matches a literal path segment before a parameter, and parameters by position", async () => {
    const order = await problem("GET", `/orders/${crypto.randomUUID()}`, 200, envelope({}));
    expect(order).toMatch(/body\/data must have required property 'id'/);
    expect(await problem("GET", "/reports/low-stock?format=csv", 200, "sku\r\n", "text/csv")).toBeUndefined();
  });

  it("allows only client errors in the envelope where the document lists no operation", async () => {
    const notFound = { success: false, data: null, message: "Not found", errors: ["Not found"] };
    expect(await problem("GET", "/no-such-thing", 404, notFound)).toBeUndefined();
    expect(await problem("GET", "/no-such-thing", 200, envelope({}))).toMatch(/200 for a path and method/);
    expect(await problem("GET", "/no-such-thing", 404, { message: "Not found" })).toMatch(
      /must have required property 'success'/,
    );
  });
});
