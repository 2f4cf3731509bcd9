import { describe, expect, it } from "vitest";
import { fetchApi } from "./support/http";

const ORIGIN = "http://localhost";
const get = (path: string, headers: Record<string, string> = {}) =>
  fetchApi(new Request(`${ORIGIN}${path}`, { headers, redirect: "manual" }));

function scriptSources(html: string): string[] {
  return [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]!);
}

describe("web application at /app/", () => {
  it("serves the app's page with a strict Content-Security-Policy", async () => {
    const response = await get("/app/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    // The scan field's camera, for this origin only; every other device stays denied.
    expect(response.headers.get("permissions-policy")).toBe(
      "camera=(self), microphone=(), geolocation=(), payment=(), usb=()",
    );
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const html = await response.text();
    const scripts = scriptSources(html);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) expect(src).toMatch(/^\/app\/assets\//);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it("answers every page of the app (deep links, invitation and reset links) with the same page", async () => {
    const index = await (await get("/app/")).text();
    for (const path of [
      "/app/products/0193a2b0-0000-7000-8000-000000000009",
      "/app/accept-invitation?token=t",
    ]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(index);
      expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    }
  });

  it("redirects /app to /app/", async () => {
    const response = await get("/app");
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe("/app/");
  });

  it("serves the built scripts with long-lived caching and answers a missing file with 404", async () => {
    const [script] = scriptSources(await (await get("/app/")).text());
    const response = await get(script!);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("javascript");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const missing = await get("/app/assets/no-such-file.js");
    expect(missing.status).toBe(404);
    await missing.body?.cancel();
  });

  it("serves the service worker at /app/sw.js (scope /app/), revalidated so a new build's is found, under the app's CSP", async () => {
    const response = await get("/app/sw.js");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("javascript");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    // One Trusted Types policy, for the worker's URL (web/src/offline/service-worker.ts), and no other.
    expect(csp).toContain("trusted-types service-worker");
    expect(await response.text()).toContain('addEventListener("fetch"');
  });

  it("answers a repeated request for an unchanged file with 304", async () => {
    const first = await get("/app/");
    await first.body?.cancel();
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const second = await get("/app/", { "if-none-match": etag! });
    expect(second.status).toBe(304);
  });
});

describe("API reference at /api/v1/docs", () => {
  it("loads its scripts from this origin only (no CDN), under a CSP that allows no other origin", async () => {
    const response = await get("/api/v1/docs");
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self';");
    const html = await response.text();
    const scripts = scriptSources(html);
    expect(scripts).toEqual(["/api/v1/docs/scalar-api-reference.js", "/api/v1/docs/docs-page.js"]);
    expect(html).not.toContain("https://");
    for (const src of scripts) {
      const script = await get(src);
      expect(script.status).toBe(200);
      expect(script.headers.get("content-type")).toContain("javascript");
      expect((await script.text()).length).toBeGreaterThan(100);
    }
  });
});
