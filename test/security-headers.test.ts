import { describe, expect, it } from "vitest";
import { createTenant } from "./support/builders";
import { BASE, fetchApi } from "./support/http";

// HSTS on every answer of the API and the web application, and nosniff on every API answer: successes, errors,
// downloads, preflights and unknown paths alike.

const HSTS = "max-age=31536000; includeSubDomains";

describe("security headers", () => {
  it("every API and web application answer carries HSTS and nosniff", async () => {
    const tenant = await createTenant();
    const requests = [
      new Request(`${BASE}/health`),
      new Request(`${BASE}/products`, { headers: tenant.admin }),
      new Request(`${BASE}/reports/inventory-valuation?format=csv`, { headers: tenant.admin }),
      new Request(`${BASE}/products`),
      new Request(`${BASE}/products/not-a-uuid`, { headers: tenant.admin }),
      new Request(`${BASE}/no-such-route`),
      new Request(`${BASE}/products`, {
        method: "OPTIONS",
        headers: { Origin: "https://app.example.com", "Access-Control-Request-Method": "GET" },
      }),
      new Request(`${BASE}/openapi.json`),
      new Request(`${BASE}/docs`),
      new Request("http://localhost/app/"),
    ];
    for (const request of requests) {
      const response = await fetchApi(request);
      await response.body?.cancel();
      const name = `${request.method} ${request.url} (${response.status})`;
      expect(response.headers.get("strict-transport-security"), name).toBe(HSTS);
      expect(response.headers.get("x-content-type-options"), name).toBe("nosniff");
    }
  });
});
