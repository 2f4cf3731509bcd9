import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { gs1CheckDigit } from "../src/gs1/check-digit";
import { createTenant, ok, type TestTenant } from "./support/api";
import {
  allScansSent,
  expectFitsPhone,
  expectWellBehaved,
  openPage,
  screenshot,
  signalsOf,
  signIn,
  wedge,
} from "./support/browser";
import { MUG_BARCODE, mainWithBins, mugWithCase, warehouseWithOrders } from "./support/seed";

/** An EAN-13 of the GS1 in-store prefix 200 (valid check digit) for the product numbered `n`. */
const ean13 = (n: number) => {
  const body = `200${String(n).padStart(9, "0")}`;
  return `${body}${gs1CheckDigit(body)}`;
};
const CASE_BARCODE = "12000000000029"; // GTIN-14 of a case of mugs: all digits, like a quantity

/** The scan field has the focus (a keyboard-wedge scanner types into whatever has it). */
const scanFieldFocused = (page: Page) =>
  page.evaluate(() => document.activeElement?.classList.contains("scan-input") ?? false);

/** Every answer of GET /barcodes/{code} held back, so the next scan is typed while one is resolving. */
async function slowLookups(page: Page, ms: number) {
  await page.route("**/api/v1/barcodes/**", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

/** Picks as a keyboard-wedge scanner types; each finding of issue #46 on its own. */
describe("picking by wedge scans", () => {
  let tenant: TestTenant;
  let seeded: Awaited<ReturnType<typeof warehouseWithOrders>>;
  beforeAll(async () => {
    tenant = await createTenant();
    seeded = await warehouseWithOrders(tenant, 6);
  }, 120_000);
  let next = 0;
  /** A pick list of the next unused orders (each: 2 pens in A2, 3 mugs in A1), opened signed in at phone size. */
  async function picking(orders = 1) {
    const chosen = seeded.orders.slice(next, next + orders);
    next += orders;
    const pickList = await ok(
      tenant.api.POST("/api/v1/pick-lists", {
        body: { warehouseId: seeded.main.id, orderIds: chosen.map((o) => o.id) },
      }),
    );
    const phone = await openPage(`/app/pick/${pickList.id}`, { phone: true, recordSignals: true });
    await signIn(phone, tenant.email, tenant.password);
    await phone.getByLabel("Scan location").waitFor();
    await expect.poll(() => scanFieldFocused(phone)).toBe(true);
    const lines = [...pickList.lines].sort((a, b) => a.lineNo - b.lineNo);
    return { phone, pickList, lines, orders: chosen };
  }

  it("keeps the focus in the scan field after Short pick, so the next scan is not typed into a dialog", {
    timeout: 120_000,
  }, async () => {
    const { phone } = await picking();
    await phone.getByRole("button", { name: "Short pick" }).click();
    const dialog = phone.getByRole("dialog", { name: "Short pick at A1" });
    await dialog.getByLabel("Reason").fill("bin empty");
    await dialog.getByRole("button", { name: "Record short" }).click();
    await phone.getByText("1 of 2 lines done").waitFor();
    await expect.poll(() => scanFieldFocused(phone)).toBe(true);
    await wedge(phone, "A2");
    await phone.getByText("✓ Location A2").waitFor();
    expect(await phone.getByRole("dialog").count()).toBe(0);
    expectWellBehaved(phone);
  });

  it("counts the product scanned again at the quantity as one more unit", { timeout: 120_000 }, async () => {
    const { phone } = await picking();
    await wedge(phone, "A1");
    await wedge(phone, MUG_BARCODE);
    await expect.poll(() => phone.getByLabel("Quantity").inputValue(), { timeout: 15_000 }).toBe("3");
    await wedge(phone, MUG_BARCODE);
    await phone.getByText("Pick 2 (1 picked already)", { exact: false }).waitFor();
    expect(await phone.getByRole("alert").count()).toBe(0);
    expectWellBehaved(phone);
  });

  it("takes a scan typed while the one before it is still resolving", { timeout: 120_000 }, async () => {
    const { phone } = await picking();
    await slowLookups(phone, 800);
    await wedge(phone, "A1");
    await wedge(phone, MUG_BARCODE);
    await phone.getByText(`✓ Product ${MUG_BARCODE}`).waitFor();
    await expect.poll(() => phone.getByLabel("Quantity").inputValue(), { timeout: 15_000 }).toBe("3");
    expectWellBehaved(phone);
  });

  it("sounds and vibrates one way for a scan taken and another for one refused", {
    timeout: 120_000,
  }, async () => {
    const { phone } = await picking();
    await signalsOf(phone);
    await wedge(phone, "A2");
    await phone.getByRole("alert").getByText("Wrong location: expected A1 (line 1), scanned A2").waitFor();
    expect(await signalsOf(phone)).toEqual({ tones: [220, 165], vibrations: [[150, 80, 150]] });
    await wedge(phone, "A1");
    await phone.getByText("✓ Location A1").waitFor();
    expect(await signalsOf(phone)).toEqual({ tones: [1760], vibrations: [[40]] });
    expectWellBehaved(phone);
  });

  it("shows a wave's lines with their order, tote and product name, and sends each pick with its order's tote", {
    timeout: 180_000,
  }, async () => {
    const { phone, pickList, lines, orders } = await picking(2);
    const numberOf = (orderId: string) => orders.find((o) => o.id === orderId)?.number ?? "";
    const firstOrder = lines[0]?.orderId ?? "";
    // Walking order takes each order's lines in turn; each order's first line asks for its tote.
    const totes: Record<string, string> = {};
    for (const line of lines.slice(0, 3)) {
      const region = phone.getByRole("region", { name: `Line ${line.lineNo}` });
      const tote = totes[line.orderId];
      await region.getByText(`Order ${numberOf(line.orderId)} · tote ${tote ?? "not scanned yet"}`).waitFor();
      await region.getByText(line.sku === "MUG-1" ? "Mug" : "Pen", { exact: true }).waitFor();
      await wedge(phone, line.locationCode);
      await wedge(phone, line.sku === "MUG-1" ? MUG_BARCODE : line.sku);
      if (!tote) {
        totes[line.orderId] = line.orderId === firstOrder ? "T-1" : "T-2";
        await phone.getByLabel(`Scan tote for ${numberOf(line.orderId)}`).waitFor();
        await wedge(phone, totes[line.orderId] ?? "");
        await region.getByText(`Order ${numberOf(line.orderId)} · tote ${totes[line.orderId]}`).waitFor();
      }
      await expect
        .poll(() => phone.getByLabel("Quantity").inputValue(), { timeout: 15_000 })
        .toBe(String(line.quantity));
      await wedge(phone, String(line.quantity));
      await phone.getByText(`${lines.indexOf(line) + 1} of 4 lines done`).waitFor();
    }
    expect(Object.keys(totes)).toHaveLength(2);
    // The list of every line names each line's order and tote: two orders' mugs at A1 differ there.
    await phone.getByText("All 4 lines").click();
    for (const line of lines.slice(0, 3)) {
      const name = line.sku === "MUG-1" ? "Mug" : "Pen";
      await phone
        .getByText(
          `${line.locationCode} · ${line.sku} ${name} · ${line.quantity} · order ${numberOf(line.orderId)} · tote ${totes[line.orderId]} · picked`,
        )
        .waitFor();
    }
    await expectFitsPhone(phone, "wave pick at 390 px");
    await screenshot(phone, "pick-wave-phone");
    await allScansSent(phone);
    const moves = await ok(
      tenant.api.GET("/api/v1/inventory/movements", {
        params: { query: { reference: pickList.id, pageSize: 100 } },
      }),
    );
    expect(new Set(moves.items.map((m) => m.notes))).toEqual(new Set(["tote T-1", "tote T-2"]));
    expectWellBehaved(phone);
  });
});

/** Receipts as a keyboard-wedge scanner types; each finding of issue #46 on its own. */
describe("receiving by wedge scans", () => {
  let tenant: TestTenant;
  let products: Record<"mug" | "soap" | "glue", { id: string; barcode: string | null }>;
  let main: { id: string };
  beforeAll(async () => {
    tenant = await createTenant();
    const { api } = tenant;
    const bins = await mainWithBins(tenant);
    main = bins.main;
    const mug = await mugWithCase(tenant, CASE_BARCODE);
    const soap = await ok(
      api.POST("/api/v1/products", {
        body: { sku: "SOAP-1", name: "Dish soap", barcode: ean13(2), tracking: "lot" },
      }),
    );
    const glue = await ok(
      api.POST("/api/v1/products", {
        body: { sku: "GLUE-1", name: "Glue", barcode: ean13(3), tracking: "lot" },
      }),
    );
    // GLUE's lot L-1 exists already, with its expiry.
    await ok(
      api.POST("/api/v1/inventory/adjustments", {
        body: {
          productId: glue.id,
          locationId: bins.a1.id,
          quantity: 1,
          reason: "received",
          lotNumber: "L-1",
          expiresAt: "2027-01-31",
        },
      }),
    );
    products = { mug, soap, glue };
  }, 120_000);

  /** A purchase order of `lines`, ordered, opened on the Receive screen at phone size. */
  async function receiving(lines: { product: "mug" | "soap" | "glue"; quantity: number }[]) {
    const { api } = tenant;
    const po = await ok(
      api.POST("/api/v1/orders/purchase", {
        body: {
          supplier: "Acme Supply",
          warehouseId: main.id,
          lines: lines.map((l) => ({ productId: products[l.product].id, quantity: l.quantity, cost: 1 })),
        },
      }),
    );
    await ok(
      api.PATCH("/api/v1/orders/{id}/status", {
        params: { path: { id: po.id } },
        body: { status: "ordered" },
      }),
    );
    const phone = await openPage(`/app/receive/${po.id}`, { phone: true, recordSignals: true });
    await signIn(phone, tenant.email, tenant.password);
    await phone.getByLabel("Scan product").waitFor();
    await expect.poll(() => scanFieldFocused(phone)).toBe(true);
    return { phone, po };
  }
  const levelsOf = async (po: { id: string }) => {
    const moves = await ok(
      tenant.api.GET("/api/v1/inventory/movements", {
        params: { query: { reference: po.id, pageSize: 100 } },
      }),
    );
    return moves.items.map((m) => [m.delta, m.lotNumber]).sort();
  };

  it("takes a case's barcode for its product, and at the quantity as one more case", {
    timeout: 120_000,
  }, async () => {
    const { phone, po } = await receiving([{ product: "mug", quantity: 8 }]);
    await wedge(phone, CASE_BARCODE);
    await phone.getByRole("region", { name: "Receipt under way" }).getByText("MUG-1").waitFor();
    await wedge(phone, "A1");
    await expect.poll(() => phone.getByLabel("Quantity").inputValue(), { timeout: 15_000 }).toBe("8");
    await wedge(phone, CASE_BARCODE);
    await phone.getByText("Received 4 MUG-1 into A1").waitFor();
    await allScansSent(phone);
    expect(await levelsOf(po)).toEqual([[4, null]]);
    expectWellBehaved(phone);
  });

  it("reads GTIN, lot and expiry from one GS1-128 scan", { timeout: 120_000 }, async () => {
    const { phone, po } = await receiving([{ product: "soap", quantity: 12 }]);
    // The lot, then (after the group separator, which this scanner is set to send as ~) GTIN and expiry.
    await wedge(phone, `10L-77~010${products.soap.barcode}17270531`);
    const receipt = phone.getByRole("region", { name: "Receipt under way" });
    await receipt.getByText("✓ Lot L-77").waitFor();
    await receipt.getByText("✓ Expires 2027-05-31").waitFor();
    await wedge(phone, "A2");
    await expect.poll(() => phone.getByLabel("Quantity").inputValue(), { timeout: 15_000 }).toBe("12");
    await wedge(phone, "12");
    await phone.getByText(`${po.number} is received in full.`).waitFor();
    await screenshot(phone, "receive-gs1-phone");
    await allScansSent(phone);
    const stock = await ok(
      tenant.api.GET("/api/v1/inventory/stock", { params: { query: { lotNumber: "L-77", pageSize: 10 } } }),
    );
    expect(
      stock.items.flatMap((l) => ("reserved" in l ? [[l.sku, l.locationCode, l.expiresAt, l.onHand]] : [])),
    ).toEqual([["SOAP-1", "A2", "2027-05-31", 12]]);
    expectWellBehaved(phone);
  });

  it("asks no expiry for a lot that exists, and refuses 2027-02-30 for a new one at once", {
    timeout: 120_000,
  }, async () => {
    const { phone, po } = await receiving([{ product: "glue", quantity: 5 }]);
    await wedge(phone, products.glue.barcode ?? "");
    await wedge(phone, "A1");
    await phone.getByLabel("Lot number").waitFor();
    await wedge(phone, "L-1");
    await expect.poll(() => phone.getByLabel("Quantity").inputValue(), { timeout: 15_000 }).toBe("5");
    await wedge(phone, "2");
    await phone.getByText("Received 2 GLUE-1 into A1").waitFor();
    await wedge(phone, "GLUE-1");
    await wedge(phone, "A1");
    await phone.getByLabel("Lot number").waitFor();
    await wedge(phone, "L-2");
    await phone.getByLabel("Expires on (YYYY-MM-DD)").waitFor();
    await wedge(phone, "2027-02-30");
    await phone
      .getByRole("alert")
      .getByText("Expiry must be a date as YYYY-MM-DD (or nothing for none); 2027-02-30 is none")
      .waitFor();
    await wedge(phone, "2027-02-28");
    await expect.poll(() => phone.getByLabel("Quantity").inputValue(), { timeout: 15_000 }).toBe("3");
    await wedge(phone, "3");
    await phone.getByText(`${po.number} is received in full.`).waitFor();
    await allScansSent(phone);
    expect(await levelsOf(po)).toEqual([
      [2, "L-1"],
      [3, "L-2"],
    ]);
    expectWellBehaved(phone);
  });
});
