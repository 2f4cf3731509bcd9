import { describe, expect, it } from "vitest";
import bindingsSource from "../src/db/bindings.ts?raw";

// The seam between platform data and tenant data (src/db/README.md), checked on the source: a module
// that reaches around it fails here, whatever its tests do.
const sources = import.meta.glob<string>("../src/**/*.ts", { query: "?raw", import: "default", eager: true });

/** Modules whose data is the platform's: who may act on which tenant. */
const PLATFORM_MODULES = [
  "auth",
  "sessions",
  "users",
  "api-keys",
  "platform",
  "invitations",
  "passwords",
  "identity",
  "mail",
];
/** The request pipeline's step that resolves the tenant and opens both of its handles, and their types. */
const OPENS_HANDLES = ["../src/auth/tenant.ts", "../src/env.ts"];

const moduleOf = (path: string) => path.split("/")[2] ?? "";
const outsideDb = Object.entries(sources).filter(([path]) => moduleOf(path) !== "db");
const opensHandles = (path: string) => OPENS_HANDLES.includes(path);
const isPlatform = (path: string) => PLATFORM_MODULES.includes(moduleOf(path));
const databaseBindings = [...bindingsSource.matchAll(/^\s*(\w+)\??: D1Database;/gm)].map(
  (m) => m[1] as string,
);

function violations(rule: (path: string, text: string) => boolean) {
  return outsideDb.filter(([path, text]) => rule(path, text)).map(([path]) => path);
}

describe("the database seam", () => {
  it("finds the sources and the database bindings it checks", () => {
    expect(outsideDb.length).toBeGreaterThan(50);
    expect(databaseBindings.length).toBeGreaterThan(0);
  });

  it("leaves the database bindings to src/db", () => {
    const touchesBinding = (text: string) =>
      databaseBindings.some((name) => new RegExp(`\\.${name}\\b|\\b${name}\\s*[,}:]`).test(text)) ||
      /from "drizzle-orm\/d1"/.test(text);
    expect(violations((_path, text) => touchesBinding(text))).toEqual([]);
  });

  it("reaches platform tables only through platformDb, from platform modules", () => {
    expect(
      violations(
        (path, text) =>
          !isPlatform(path) &&
          !opensHandles(path) &&
          /db\/schema\/platform"|\bplatformDb\b|PlatformScope/.test(text),
      ),
    ).toEqual([]);
  });

  it("reaches tenant tables only through dbFor, from tenant modules", () => {
    expect(
      violations(
        (path, text) =>
          isPlatform(path) &&
          !opensHandles(path) &&
          /db\/schema\/tenant"|\bdbFor\b|TenantDb\b|tenantDb\b/.test(text),
      ),
    ).toEqual([]);
  });

  it("spans tenants' databases only in the cron sweeps", () => {
    expect(violations((_path, text) => /\btenantDatabases\b/.test(text)).sort()).toEqual([
      "../src/billing/storage-snapshots.ts",
      "../src/idempotency/sweep.ts",
      "../src/jobs/wake-stranded.ts",
      "../src/outbox/retention.ts",
      "../src/stock/hold-release.ts",
      "../src/uploads/sweep-expired.ts",
      "../src/webhooks/dispatch-sweep.ts",
    ]);
  });
});
