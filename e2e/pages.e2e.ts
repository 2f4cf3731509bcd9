import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, ok, type TestTenant } from "./support/api";
import {
  expectAccessible,
  expectFitsPhone,
  expectHeaderOneRow,
  expectSpotless,
  openPage,
  screenshot,
  signIn,
} from "./support/browser";
import { seedWarehouse } from "./support/seed";

let tenant: TestTenant;
const pages: [path: string, heading: string | RegExp][] = [
  ["/app/", "Dashboard"],
  ["/app/stock", "Stock"],
  ["/app/orders", "Orders"],
  ["/app/pick-lists", "Pick lists"],
  ["/app/pick", "Pick"],
  ["/app/receive", "Receive"],
  ["/app/count", "Count"],
  ["/app/waiting", "Scans on this device"],
  ["/app/pack", "Pack"],
  ["/app/shipments", "Shipments"],
  ["/app/returns", "Returns"],
  ["/app/jobs", "Jobs"],
  ["/app/merchants", "Merchants"],
  ["/app/billing/invoices", "Invoices"],
  ["/app/billing/charges", "Charges"],
  ["/app/billing/rate-cards", "Rate cards"],
  ["/app/products", "Products"],
  ["/app/movements", "Movements"],
  ["/app/counts", "Cycle counts"],
  ["/app/lots", "Lots and expiry"],
  ["/app/holds", "Holds"],
  ["/app/warehouses", "Warehouses"],
  ["/app/reports", "Reports"],
  ["/app/events", "Events"],
  ["/app/configuration/users", "Users"],
  ["/app/configuration/api-keys", "API Keys"],
  ["/app/configuration/webhooks", "Webhooks"],
  ["/app/configuration", "Settings"],
  ["/app/account", "Your account"],
];

beforeAll(async () => {
  tenant = await createTenant();
  const { warehouse, a1, pen, mug } = await seedWarehouse(tenant);
  // A name far wider than a phone, in every location picker (it pushed the Stock page to 490 px, issue #45).
  await ok(
    tenant.api.POST("/api/v1/locations", {
      body: {
        warehouseId: warehouse.id,
        code: "OVERFLOW-AISLE-17-BAY-04-LEVEL-3-POSITION-12-LEFT",
        name: "Overflow aisle seventeen, bay four, level three, position twelve on the left",
        type: "bin",
      },
    }),
  );
  const soap = await ok(
    tenant.api.POST("/api/v1/products", { body: { sku: "SOAP-1", name: "Dish soap", tracking: "lot" } }),
  );
  await ok(
    tenant.api.POST("/api/v1/inventory/adjustments", {
      body: {
        productId: soap.id,
        locationId: a1.id,
        quantity: 6,
        reason: "received",
        lotNumber: "L-1",
        expiresAt: "2026-12-20",
      },
    }),
  );
  await ok(
    tenant.api.POST("/api/v1/inventory/holds", {
      body: {
        productId: pen.id,
        quantity: 2,
        warehouseId: warehouse.id,
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
    }),
  );
  const count = await ok(tenant.api.POST("/api/v1/inventory/counts", { body: { locationIds: [a1.id] } }));
  const orders = await ok(tenant.api.GET("/api/v1/orders", { params: { query: { pageSize: 1 } } }));
  pages.push(
    [`/app/counts/${count.id}`, /^Count /],
    [`/app/count/${count.id}`, /^Count /],
    [`/app/orders/${orders.items[0]?.id}`, /^Order /],
  );
  pages.push([`/app/products/${mug.id}`, "MUG-1 Mug"]);
  const [confirmed] = (
    await ok(tenant.api.GET("/api/v1/orders", { params: { query: { status: "confirmed", type: "sales" } } }))
  ).items;
  const pickList = await ok(
    tenant.api.POST("/api/v1/pick-lists", {
      body: { warehouseId: warehouse.id, orderIds: [confirmed?.id ?? ""] },
    }),
  );
  pages.push([`/app/pick-lists/${pickList.id}`, /^Pick list /], [`/app/pick/${pickList.id}`, /^Pick list /]);
  const [awaiting] = (
    await ok(tenant.api.GET("/api/v1/orders", { params: { query: { type: "purchase", pageSize: 1 } } }))
  ).items;
  await ok(
    tenant.api.PATCH("/api/v1/orders/{id}/status", {
      params: { path: { id: awaiting?.id ?? "" } },
      body: { status: "ordered" },
    }),
  );
  pages.push([`/app/receive/${awaiting?.id}`, /^Receive PO-/]);
  // The seed's shipped order: its shipment, and a return of one of its mugs.
  const [shipped] = (
    await ok(tenant.api.GET("/api/v1/orders", { params: { query: { status: "shipped", type: "sales" } } }))
  ).items;
  const shippedOrder = await ok(
    tenant.api.GET("/api/v1/orders/{id}", { params: { path: { id: shipped?.id ?? "" } } }),
  );
  const [shipment] = await ok(
    tenant.api.GET("/api/v1/orders/{id}/shipments", { params: { path: { id: shippedOrder.id } } }),
  );
  const mugReturn = await ok(
    tenant.api.POST("/api/v1/returns", {
      body: {
        orderId: shippedOrder.id,
        lines: [{ orderLineId: shippedOrder.lines[0]?.id ?? "", quantity: 1, reason: "damaged" }],
      },
    }),
  );
  const acme = await ok(
    tenant.api.POST("/api/v1/merchants", { body: { code: "ACME", name: "Acme Outdoor" } }),
  );
  await ok(
    tenant.api.POST("/api/v1/billing/rate-cards", {
      body: {
        merchantId: acme.id,
        currency: "EUR",
        effectiveFrom: new Date().toISOString().slice(0, 10),
        rates: [
          { activity: "storage", per: "unit_day", locationType: "bin", unitPrice: 0.0125 },
          { activity: "minimum", per: "month", unitPrice: 250 },
        ],
      },
    }),
  );
  const invoice = await ok(
    tenant.api.POST("/api/v1/billing/invoices", {
      body: { merchantId: acme.id, period: new Date().toISOString().slice(0, 7) },
    }),
  );
  const job = await ok(tenant.api.POST("/api/v1/jobs", { body: { type: "products_export" } }));
  pages.push(
    [`/app/jobs/${job.id}`, /^products export /],
    [`/app/pack/${confirmed?.id}`, /^Pack SO-/],
    [`/app/shipments/${shipment?.id}`, /^Shipment /],
    [`/app/returns/${mugReturn.id}`, /^Return RMA-/],
    [`/app/billing/invoices/${invoice.id}`, /^Invoice ACME /],
  );
});

async function walk(phone: boolean) {
  const page = await openPage("/app/", { phone });
  await signIn(page, tenant.email, tenant.password);
  await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
  // Every page is checked before the test fails, so one run lists every finding.
  const findings: string[] = [];
  const check = async (assertion: () => unknown) => {
    try {
      await assertion();
    } catch (error) {
      const { message, actual } = error as { message?: string; actual?: unknown };
      findings.push(`${message?.split(":")[0]}: ${JSON.stringify(actual ?? message)}`);
    }
  };
  for (const [path, heading] of pages) {
    await page.goto(path); // a full load keeps the session (the refresh cookie)
    await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
    // Up to 15 s: a page of several reads (Pack asks for four statuses) takes seconds on a busy machine.
    await expect
      .poll(
        () =>
          page
            .getByRole("status")
            .filter({ hasText: /Loading|Updating/ })
            .count(),
        { timeout: 15_000 },
      )
      .toBe(0);
    const where = `${path} at ${phone ? "390x844" : "1366x800"}`;
    await check(() => expectAccessible(page, where));
    // Every row has a cell per column: on a phone a cell is shown under its column's name.
    const misaligned = await page.evaluate(() =>
      [...document.querySelectorAll("table")].flatMap((table) => {
        const columns = table.tHead?.rows[0]?.cells.length ?? 0;
        return [...table.tBodies]
          .flatMap((body) => [...body.rows])
          .filter((row) => [...row.cells].reduce((n, cell) => n + cell.colSpan, 0) !== columns)
          .map((row) => `${columns} columns, a row of ${row.cells.length} cells: ${row.textContent}`);
      }),
    );
    await check(() => expect(misaligned, where).toEqual([]));
    if (phone) await check(() => expectFitsPhone(page, where));
    else {
      await check(() => expectHeaderOneRow(page, where));
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      await check(() => expect(sideways, `${where}: sideways scrolling`).toBe(0));
    }
    await screenshot(page, `page${path.replaceAll("/", "-").replace(/-$/, "")}${phone ? "-phone" : ""}`);
  }
  expect(findings).toEqual([]);
  expectSpotless(page);
}

describe("every page", () => {
  // Twenty-seven pages, each loaded and analysed by axe: seconds each on a quiet machine, up to half a minute each
  // at a load average of 20 (one walk took 600 s there), so the limit is generous; it is never a speed check.
  it("is accessible at 1366 x 800, with no console error and no other origin", {
    timeout: 1_200_000,
  }, async () => {
    await walk(false);
  });

  it("is accessible at 390 x 844 and fits the phone: no sideways scrolling, touch targets of 44 px", {
    timeout: 1_200_000,
  }, async () => {
    await walk(true);
  });
});
