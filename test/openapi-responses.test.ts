import { describe, expect, it } from "vitest";
import { BASE } from "./support/http";
import { documentProblem, requestDisagreement, requestRefusal } from "./support/openapi";

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
  headers: Record<string, string> = {},
) {
  const sent = {
    "content-type": contentType,
    "x-request-id": "req-1",
    ...(status >= 400 ? { "x-error-code": "INTERNAL" } : {}),
    ...headers,
  };
  const response = new Response(JSON.stringify(body), { status, headers: sent });
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

  it("refuses an API header the response does not declare, and a declared required one missing", async () => {
    expect(
      await problem("GET", "/health", 200, envelope(health), "application/json", { location: "/x" }),
    ).toMatch(/200 sends Location, which the document does not declare on it/);
    const bare = new Response(JSON.stringify(envelope(health)), {
      headers: { "content-type": "application/json" },
    });
    expect(await documentProblem(new Request(`${BASE}/health`), bare, envelope(health))).toMatch(
      /200 lacks x-request-id, which the document declares required/,
    );
  });
});

describe("requests are checked against the served OpenAPI document", () => {
  const post = (path: string, body: unknown) =>
    new Request(`${BASE}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const answer = (status: number, errors: string[] | null = null, code = "VALIDATION_FAILED") =>
    new Response(JSON.stringify({ success: status < 400, data: null, message: null, errors }), {
      status,
      headers: { "content-type": "application/json", ...(status >= 400 ? { "x-error-code": code } : {}) },
    });

  it("accepts what the document describes, and refuses bad parameters and bodies", async () => {
    expect(await requestRefusal(new Request(`${BASE}/products?sort=-price&page=2`))).toBeUndefined();
    expect(await requestRefusal(new Request(`${BASE}/products?page=x`))).toMatch(
      /query parameter page: .*integer/,
    );
    expect(await requestRefusal(new Request(`${BASE}/products/not-a-uuid`))).toMatch(/path parameter id/);
    expect(await requestRefusal(post("/warehouses", { code: "W1", name: "Main", extra: 1 }))).toMatch(
      /the body: .*additional properties/,
    );
    expect(await requestRefusal(new Request(`${BASE}/warehouses`, { method: "POST" }))).toMatch(
      /the request body is required/,
    );
  });

  it("fails when the API accepts what the document refuses, or refuses as invalid what it accepts", async () => {
    const bad = post("/warehouses", { code: "W1" });
    expect(await requestDisagreement(bad, answer(201), null)).toMatch(
      /answered 201 to a request the document refuses/,
    );
    expect(await requestDisagreement(bad, answer(400, ["name: is required"]), null)).toBeUndefined();
    const good = post("/warehouses", { code: "W1", name: "Main" });
    const body = {
      success: false,
      data: null,
      message: "Validation failed",
      errors: ["code: must be lower case"],
    };
    expect(await requestDisagreement(good, answer(400, body.errors), body)).toMatch(
      /refused as invalid a request the document accepts: code: must be lower case/,
    );
    // A refusal the document cannot state, listed with its reason: a name that is blank once trimmed.
    const blankName = post("/warehouses", { code: "W1", name: " " });
    const blankBody = { ...body, errors: ["name: must not be empty"] };
    expect(await requestDisagreement(blankName, answer(400, blankBody.errors), blankBody)).toBeUndefined();
    // Not a validation failure: a conflict is about stored data.
    expect(
      await requestDisagreement(good, answer(409, ["code: already used"], "CONFLICT"), body),
    ).toBeUndefined();
  });
});
