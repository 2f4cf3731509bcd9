import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createTenant, ok } from "./support/api";
import { expectSpotless, openPage, signIn } from "./support/browser";

/** A loaded machine takes seconds to render a page: polls wait up to 15 s. */
const POLL = { timeout: 15_000 };

// Issue #45: the Movements and Charges pages read one product or order per row (N+1). They read the records their
// rows name in one request, through the lists' `ids` filter.

/** The API GETs the page sends from now on, as paths with their query. */
function apiReads(page: Page) {
  const reads: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (request.method() === "GET" && url.pathname.startsWith("/api/v1/"))
      reads.push(url.pathname + url.search);
  });
  return reads;
}

describe("pages that name records by id", () => {
  it("read the products of a ledger page and the orders of a page of charges in one request each", {
    timeout: 180_000,
  }, async () => {
    const tenant = await createTenant();
    const { api } = tenant;
    const main = await ok(api.POST("/api/v1/warehouses", { body: { code: "MAIN", name: "Main" } }));
    const bin = await ok(
      api.POST("/api/v1/locations", { body: { warehouseId: main.id, code: "A1", name: "A1", type: "bin" } }),
    );
    const merchant = await ok(api.POST("/api/v1/merchants", { body: { code: "ACME", name: "Acme" } }));
    await ok(
      api.POST("/api/v1/billing/rate-cards", {
        body: {
          merchantId: merchant.id,
          currency: "EUR",
          effectiveFrom: "2026-01-01",
          rates: [{ activity: "receiving", per: "unit", unitPrice: 0.1 }],
        },
      }),
    );
    // Six products of the merchant, each received on its own purchase order: six ledger rows, six charges.
    for (let i = 1; i <= 6; i++) {
      const product = await ok(
        api.POST("/api/v1/products", {
          body: { sku: `NR-${i}`, name: `Named ${i}`, merchantId: merchant.id },
        }),
      );
      const po = await ok(
        api.POST("/api/v1/orders/purchase", {
          body: {
            supplier: "Acme",
            warehouseId: main.id,
            lines: [{ productId: product.id, quantity: i, cost: 1 }],
          },
        }),
      );
      await ok(
        api.PATCH("/api/v1/orders/{id}/status", {
          params: { path: { id: po.id } },
          body: { status: "ordered" },
        }),
      );
      await ok(
        api.POST("/api/v1/orders/{id}/receive", {
          params: { path: { id: po.id } },
          body: { lines: [{ lineId: po.lines[0]?.id ?? "", quantity: i, locationId: bin.id }] },
        }),
      );
    }

    const page = await openPage("/app/");
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    const reads = apiReads(page);
    await page.goto("/app/movements");
    const ledger = page.getByRole("region", { name: "Movements" });
    for (let i = 1; i <= 6; i++) await ledger.getByRole("link", { name: `NR-${i}`, exact: true }).waitFor();
    expect(reads.filter((r) => /^\/api\/v1\/products\/[^?]/.test(r))).toEqual([]);
    expect(reads.filter((r) => r.startsWith("/api/v1/products?"))).toHaveLength(1);

    reads.length = 0;
    await page.goto(`/app/billing/charges?merchant=${merchant.id}`);
    const charges = page.getByRole("region", { name: "Charges" });
    await expect.poll(() => charges.getByRole("link", { name: /^Receipt of PO-/ }).count(), POLL).toBe(6);
    expect(reads.filter((r) => /^\/api\/v1\/orders\/[^?]/.test(r))).toEqual([]);
    expect(reads.filter((r) => r.startsWith("/api/v1/orders?"))).toHaveLength(1);
    expectSpotless(page);
  });
});
