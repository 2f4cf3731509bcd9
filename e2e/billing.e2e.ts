import type { Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createTenant, invitedMember, ok, type TestTenant } from "./support/api";
import {
  expectFitsPhone,
  expectWellBehaved,
  openFromMenu,
  openPage,
  screenshot,
  signIn,
} from "./support/browser";
import { mainWithBins } from "./support/seed";

const today = () => new Date().toISOString().slice(0, 10);
const month = () => today().slice(0, 7);

/** Merchant ACME with a product whose purchase order of 10 was received today; merchant BETA with an invoice. */
async function threePl(tenant: TestTenant) {
  const { api } = tenant;
  const { main, a1 } = await mainWithBins(tenant);
  const acme = await ok(api.POST("/api/v1/merchants", { body: { code: "ACME", name: "Acme Outdoor" } }));
  const beta = await ok(api.POST("/api/v1/merchants", { body: { code: "BETA", name: "Beta Foods" } }));
  const tent = await ok(
    api.POST("/api/v1/products", { body: { sku: "TENT-1", name: "Tent", price: 90, merchantId: acme.id } }),
  );
  const po = await ok(
    api.POST("/api/v1/orders/purchase", {
      body: {
        supplier: "Acme",
        warehouseId: main.id,
        lines: [{ productId: tent.id, quantity: 10, cost: 40 }],
      },
    }),
  );
  await ok(
    api.PATCH("/api/v1/orders/{id}/status", { params: { path: { id: po.id } }, body: { status: "ordered" } }),
  );
  await ok(
    api.POST("/api/v1/orders/{id}/receive", {
      params: { path: { id: po.id } },
      body: { lines: [{ lineId: po.lines[0]?.id ?? "", quantity: 10, locationId: a1.id }] },
    }),
  );
  await ok(
    api.POST("/api/v1/billing/rate-cards", {
      body: {
        merchantId: beta.id,
        currency: "USD",
        effectiveFrom: today(),
        rates: [{ activity: "minimum", per: "month", unitPrice: 50 }],
      },
    }),
  );
  const betaInvoice = await ok(
    api.POST("/api/v1/billing/invoices", { body: { merchantId: beta.id, period: month() } }),
  );
  return { acme, beta, po, betaInvoice };
}

describe("billing, through the screens", () => {
  it("gives a merchant a rate card with exact prices, lists its charges, invoices the month, downloads and voids it", {
    timeout: 240_000,
  }, async () => {
    const tenant = await createTenant();
    const { acme, po } = await threePl(tenant);
    const page = await openPage("/app/");
    await signIn(page, tenant.email, tenant.password);
    await openFromMenu(page, "3PL", "Billing");
    await page.getByRole("heading", { name: "Invoices", level: 1 }).waitFor();

    // A rate card for ACME: receiving per line and per unit, a monthly minimum, packing by package type.
    await page.getByRole("navigation", { name: "Billing" }).getByRole("link", { name: "Rate cards" }).click();
    await page.getByRole("heading", { name: "Rate cards", level: 1 }).waitFor();
    await page.getByRole("combobox", { name: /^Merchant/ }).selectOption(acme.id);
    await page.getByRole("button", { name: "Show" }).click();
    await page.getByText("No rate card yet: nothing is charged.").waitFor();
    await page.getByRole("button", { name: "New rate card" }).click();
    const dialog = page.getByRole("dialog", { name: "New rate card" });
    await dialog.getByLabel("Currency").fill("EUR");
    const receiving = dialog.getByRole("group", { name: "Receiving" });
    await receiving.getByLabel("Per line").fill("1.2345");
    await receiving.getByLabel("Per unit").fill("0.0125");
    await dialog.getByRole("group", { name: "Minimum" }).getByLabel("Per month").fill("100");
    await dialog.getByRole("button", { name: "Add packing rate by package type" }).click();
    const byType = dialog.getByRole("group", { name: "Packing by package type" });
    await byType.getByLabel("Package type").fill("pallet");
    await byType.getByLabel("Unit price").fill("7.5");
    await screenshot(page, "billing-new-rate-card");
    await dialog.getByRole("button", { name: "Create rate card" }).click();
    const card = page.getByRole("region", { name: `From ${today()} in EUR` });
    await card
      .getByRole("row", { name: /Receiving per line/ })
      .getByText("€1.2345")
      .waitFor();
    await card
      .getByRole("row", { name: /Packing per package \(pallet\)/ })
      .getByText("€7.50")
      .waitFor();
    const [stored] = (
      await ok(tenant.api.GET("/api/v1/billing/rate-cards", { params: { query: { merchantId: acme.id } } }))
    ).items;
    expect(stored?.currency).toBe("EUR");
    expect(stored?.rates).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ activity: "receiving", per: "line", unitPrice: 1.2345 }),
        expect.objectContaining({ activity: "receiving", per: "unit", unitPrice: 0.0125 }),
        expect.objectContaining({ activity: "minimum", per: "month", unitPrice: 100 }),
        expect.objectContaining({
          activity: "packing",
          per: "package",
          packageType: "pallet",
          unitPrice: 7.5,
        }),
      ]),
    );
    expect(stored?.rates).toHaveLength(4);

    // Today's charges: the receipt of the purchase order, by line and by unit, linked to the order.
    await page.getByRole("link", { name: "Charges" }).click();
    await page.getByRole("heading", { name: "Charges", level: 1 }).waitFor();
    const charges = page.getByRole("region", { name: "Charges" });
    const perUnit = charges.getByRole("row", { name: /Receiving per unit/ });
    await perUnit.getByText("€0.125", { exact: true }).waitFor();
    expect(await perUnit.getByRole("cell").nth(2).textContent()).toBe("10");
    await charges
      .getByRole("row", { name: /Receiving per line/ })
      .getByText("€1.2345")
      .first()
      .waitFor();
    await charges
      .getByRole("link", { name: new RegExp(`^Receipt of ${po.number}`) })
      .first()
      .click();
    await page.getByRole("heading", { name: new RegExp(po.number), level: 1 }).waitFor();
    await page.goBack();
    await page.getByRole("heading", { name: "Charges", level: 1 }).waitFor();

    // The month's invoice: the receipt's lines and the minimum's top-up to 100, exactly.
    await page.getByRole("link", { name: "Invoices" }).click();
    await page.getByRole("button", { name: "Make invoice" }).click();
    const make = page.getByRole("dialog", { name: "Make invoice" });
    await make.getByRole("combobox", { name: /^Merchant/ }).selectOption(acme.id);
    await make.getByRole("button", { name: "Make invoice" }).click();
    await page.getByRole("heading", { name: `Invoice ACME ${month()}`, level: 1 }).waitFor();
    const lines = page.getByRole("region", { name: "Invoice lines" });
    await lines
      .getByRole("row", { name: /Minimum per month/ })
      .getByText("€98.6405")
      .first()
      .waitFor();
    await lines
      .getByRole("row", { name: /^Total/ })
      .getByText("€100.00")
      .waitFor();
    await screenshot(page, "billing-invoice");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Invoice-ACME-${month()}.csv`);
    const csv = await new Response((await download.createReadStream()) as unknown as ReadableStream).text();
    expect(csv).toContain("98.6405");
    expect(csv.trim().split(/\r?\n/).at(-1)).toContain("100");

    const [made] = (
      await ok(tenant.api.GET("/api/v1/billing/invoices", { params: { query: { merchantId: acme.id } } }))
    ).items;
    expect(made).toMatchObject({ status: "issued", currency: "EUR", totalExact: "100", period: month() });
    expect(made?.lines.map((l) => [l.activity, l.per, l.quantity, l.totalExact])).toEqual([
      ["receiving", "line", 1, "1.2345"],
      ["receiving", "unit", 10, "0.125"],
      ["minimum", "month", 1, "98.6405"],
    ]);

    await page.getByRole("button", { name: "Void invoice" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Void invoice" }).click();
    await page.locator(".details .badge", { hasText: "voided" }).waitFor();
    expect(await page.getByRole("button", { name: "Void invoice" }).count()).toBe(0);
    const voided = await ok(
      tenant.api.GET("/api/v1/billing/invoices/{id}", { params: { path: { id: made?.id ?? "" } } }),
    );
    expect(voided.status).toBe("voided");
    expectWellBehaved(page);
  });

  it("shows a merchant's own member its own invoices only, with nothing to make or void, at phone size", {
    timeout: 180_000,
  }, async () => {
    const tenant = await createTenant();
    const { acme, beta, betaInvoice } = await threePl(tenant);
    // ACME has an invoice too, which BETA's member must not see.
    await ok(
      tenant.api.POST("/api/v1/billing/rate-cards", {
        body: {
          merchantId: acme.id,
          currency: "EUR",
          effectiveFrom: today(),
          rates: [{ activity: "receiving", per: "unit", unitPrice: 1 }],
        },
      }),
    );
    await ok(tenant.api.POST("/api/v1/billing/invoices", { body: { merchantId: acme.id, period: month() } }));
    const email = `beta-${tenant.id}@e2e.example`;
    const member = await invitedMember(tenant, {
      email,
      name: "Bea",
      password: "bea-password-1",
      role: "admin",
    });
    await ok(
      tenant.api.PUT("/api/v1/users/{id}", {
        params: { path: { id: member.id } },
        body: { role: "admin", merchantId: beta.id },
      }),
    );
    const phone = await openPage("/app/billing/invoices", { phone: true });
    await signIn(phone, email, "bea-password-1");
    await phone.getByRole("heading", { name: "Invoices", level: 1 }).waitFor();
    const invoices = phone.getByRole("region", { name: "Invoices" });
    await invoices.getByRole("link", { name: `Invoice BETA ${month()}` }).waitFor();
    expect(await invoices.getByRole("row").count()).toBe(2); // the heading's row and BETA's invoice
    // The session says the member acts for BETA: no merchant to choose, nothing to make.
    expect(await phone.getByRole("button", { name: "Make invoice" }).count()).toBe(0);
    expect(await phone.getByRole("combobox", { name: /^Merchant/ }).count()).toBe(0);
    await expectFitsPhone(phone, "a merchant's invoices at 390 px");
    await screenshot(phone, "billing-merchant-invoices-phone");
    await invoices.getByRole("link", { name: `Invoice BETA ${month()}` }).click();
    await phone.getByRole("heading", { name: `Invoice BETA ${month()}`, level: 1 }).waitFor();
    await phone.getByRole("region", { name: "Invoice lines" }).getByText("$50.00").first().waitFor();
    expect(await phone.getByRole("button", { name: "Void invoice" }).count()).toBe(0);
    await expectFitsPhone(phone, "a merchant's invoice at 390 px");
    const still = await ok(
      tenant.api.GET("/api/v1/billing/invoices/{id}", { params: { path: { id: betaInvoice.id } } }),
    );
    expect(still.status).toBe("issued");
    expectWellBehaved(phone);
  });
  it("shows the rate cards and charges loading, not 'No merchants yet.', while a 3PL's merchants are read", async () => {
    const tenant = await createTenant();
    await ok(tenant.api.POST("/api/v1/merchants", { body: { code: "ACME", name: "Acme Outdoor" } }));
    const page = await openPage("/app/billing/rate-cards");
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("heading", { name: "Rate cards", level: 1 }).waitFor();
    const merchants = (url: URL) => url.pathname === "/api/v1/merchants";
    for (const [path, heading, empty] of [
      ["/app/billing/rate-cards", "Rate cards", "No rate card yet: nothing is charged."],
      ["/app/billing/charges", "Charges", "No charges in these days."],
    ] as const) {
      // A page load whose merchants' answer is held until the page has been looked at.
      const held: Route[] = [];
      await page.route(merchants, (route) => void held.push(route));
      await page.goto(path);
      await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
      await expect.poll(() => held.length).toBeGreaterThan(0);
      await page.getByRole("status").filter({ hasText: "Loading" }).first().waitFor();
      expect(await page.getByText("No merchants yet.").count()).toBe(0);
      for (const route of held) await route.continue();
      await page.unroute(merchants);
      await page.getByText(empty).waitFor();
      expect(await page.getByText("No merchants yet.").count()).toBe(0);
    }
    expectWellBehaved(page);
  });
});
