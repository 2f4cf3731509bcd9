import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { gs1CheckDigit } from "../src/gs1/check-digit";
import { createTenant, ok, type TestTenant } from "./support/api";
import { allScansSent, expectWellBehaved, openPage, screenshot, signIn, wedge } from "./support/browser";
import { confirmedSale } from "./support/seed";

const ean13 = (n: number) => {
  const body = `200${String(n).padStart(9, "0")}`;
  return `${body}${gs1CheckDigit(body)}`;
};
const BINS = ["A1", "A2", "A3", "A4"];

/**
 * A warehouse with `lines` products (P01..), 10 of each in bins A1-A4, one confirmed sales order of 1 or 2 of
 * each on a pick list, and a purchase order of 3 of the first `received` products, ordered.
 */
async function floorWork(tenant: TestTenant, lines: number, received: number) {
  const { api } = tenant;
  const main = await ok(api.POST("/api/v1/warehouses", { body: { code: "MAIN", name: "Main warehouse" } }));
  const bins = [];
  for (const code of BINS)
    bins.push(
      await ok(
        api.POST("/api/v1/locations", { body: { warehouseId: main.id, code, name: code, type: "bin" } }),
      ),
    );
  const products = [];
  for (let i = 1; i <= lines; i++) {
    const sku = `P${String(i).padStart(2, "0")}`;
    const product = await ok(
      api.POST("/api/v1/products", { body: { sku, name: `Product ${i}`, barcode: ean13(i), price: 1 } }),
    );
    const bin = bins[i % bins.length];
    await ok(
      api.POST("/api/v1/inventory/adjustments", {
        body: { productId: product.id, locationId: bin?.id ?? "", quantity: 10, reason: "received" },
      }),
    );
    products.push(product);
  }
  const order = await confirmedSale(
    tenant,
    products.map((p, i) => ({ productId: p.id, quantity: 1 + (i % 2) })),
  );
  const pickList = await ok(
    api.POST("/api/v1/pick-lists", { body: { warehouseId: main.id, orderIds: [order.id] } }),
  );
  const po = await ok(
    api.POST("/api/v1/orders/purchase", {
      body: {
        supplier: "Acme",
        warehouseId: main.id,
        lines: products.slice(0, received).map((p) => ({ productId: p.id, quantity: 3, cost: 1 })),
      },
    }),
  );
  await ok(
    api.PATCH("/api/v1/orders/{id}/status", { params: { path: { id: po.id } }, body: { status: "ordered" } }),
  );
  return { main, products, pickList, po };
}

/** The pick list's next line by the screen's own words, picked by wedge scans: bin, product barcode, quantity. */
async function pickNextLine(
  page: Page,
  pickList: { lines: { lineNo: number; locationCode: string; sku: string; quantity: number }[] },
) {
  const region = page.getByRole("region", { name: /^Line \d+$/ });
  await region.waitFor();
  const name = (await region.getAttribute("aria-label")) ?? "";
  const line = pickList.lines.find((l) => `Line ${l.lineNo}` === name);
  if (!line) throw new Error(`no ${name} on the pick list`);
  await page.getByLabel("Scan location").waitFor();
  await wedge(page, line.locationCode);
  await wedge(page, ean13(Number(line.sku.slice(1))));
  await expect
    .poll(() => page.getByLabel("Quantity").inputValue(), { timeout: 15_000 })
    .toBe(String(line.quantity));
  await wedge(page, String(line.quantity));
  await page.getByRole("region", { name: `Line ${line.lineNo}`, exact: true }).waitFor({ state: "detached" });
  return line;
}

/** One receipt by wedge scans: product barcode, bin A1, 3 units. */
async function receiveOne(page: Page, n: number) {
  await page.getByLabel("Scan product").waitFor();
  await wedge(page, ean13(n));
  await page.getByLabel("Scan location").waitFor();
  await wedge(page, "A1");
  await expect.poll(() => page.getByLabel("Quantity").inputValue(), { timeout: 15_000 }).toBe("3");
  await wedge(page, "3");
}

/** Waits until the service worker controls the page (the app then loads without the network). */
async function serviceWorkerReady(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    timeout: 60_000,
  });
}

/** What the server holds after the scans, free of ids and times, to compare two tenants' runs. */
async function serverState(tenant: TestTenant, pickListId: string, poId: string) {
  const { api } = tenant;
  const stock = await ok(api.GET("/api/v1/inventory/stock", { params: { query: { pageSize: 100 } } }));
  const located = stock.items.flatMap((l) => ("reserved" in l ? [l] : []));
  const levels = located.map((l) => [l.sku, l.locationCode, l.onHand, l.reserved].join(" ")).sort();
  const skus = new Map(located.map((l) => [l.productId, l.sku]));
  const codes = new Map(located.map((l) => [l.locationId, l.locationCode]));
  const ledger = [];
  for (let page = 1; ; page++) {
    const moves = await ok(
      api.GET("/api/v1/inventory/movements", { params: { query: { page, pageSize: 100 } } }),
    );
    ledger.push(
      ...moves.items.map((m) =>
        [
          skus.get(m.productId),
          codes.get(m.locationId),
          m.delta,
          m.onHandAfter,
          m.reason,
          m.referenceType,
        ].join(" "),
      ),
    );
    if (page >= moves.totalPages) break;
  }
  const pickList = await ok(api.GET("/api/v1/pick-lists/{id}", { params: { path: { id: pickListId } } }));
  const po = await ok(api.GET("/api/v1/orders/{id}", { params: { path: { id: poId } } }));
  return {
    levels,
    ledger: ledger.sort(),
    pickList: {
      status: pickList.status,
      lines: pickList.lines
        .map((l) => [l.lineNo, l.sku, l.pickedQuantity, l.shortQuantity, l.status].join(" "))
        .sort(),
    },
    po: { status: po.status, lines: po.lines.map((l) => l.receivedQuantity).sort() },
  };
}

describe("the floor without the network", () => {
  it("picks 20 lines and receives 10 offline across two reloads, then sends each scan once: the server ends as an online run of the same scans", {
    timeout: 900_000,
  }, async () => {
    const [offlineTenant, onlineTenant] = [await createTenant(), await createTenant()];
    const offlineWork = await floorWork(offlineTenant, 20, 10);
    const onlineWork = await floorWork(onlineTenant, 20, 10);

    // The same scans online, for the figures to compare with.
    const online = await openPage(`/app/pick/${onlineWork.pickList.id}`, { phone: true });
    await signIn(online, onlineTenant.email, onlineTenant.password);
    for (let i = 0; i < 20; i++) await pickNextLine(online, onlineWork.pickList);
    await online.getByText("Pick list complete: every line is picked or short.").waitFor();
    await online.goto(`/app/receive/${onlineWork.po.id}`);
    for (let n = 1; n <= 10; n++) await receiveOne(online, n);
    await online.getByText(`${onlineWork.po.number} is received in full.`).waitFor();
    await allScansSent(online);

    // Offline: the pick list and the receipt are opened once with the network (the device saves them)...
    // The lossy network of support/browser.ts sends a write with Playwright's route.fetch, from outside the browser,
    // which would carry it through setOffline: a device without the network keeps every answer it gets.
    const page = await openPage(`/app/pick/${offlineWork.pickList.id}`, {
      phone: true,
      reliableNetwork: true,
    });
    await signIn(page, offlineTenant.email, offlineTenant.password);
    await page.getByLabel("Scan location").waitFor();
    await page.goto(`/app/receive/${offlineWork.po.id}`);
    await page.getByLabel("Scan product").waitFor();
    await serviceWorkerReady(page);
    await page.goto(`/app/pick/${offlineWork.pickList.id}`);
    await page.getByLabel("Scan location").waitFor();
    // ...then the network goes.
    await page.context().setOffline(true);
    for (let i = 0; i < 8; i++) await pickNextLine(page, offlineWork.pickList);
    await page.reload();
    await page.getByText("Offline: working from what this device saved.").waitFor();
    await page.getByText("8 scans wait to reach the server").waitFor();
    for (let i = 0; i < 12; i++) await pickNextLine(page, offlineWork.pickList);
    await page.getByText("Pick list complete: every line is picked or short.").waitFor();
    await page.goto(`/app/receive/${offlineWork.po.id}`);
    for (let n = 1; n <= 6; n++) await receiveOne(page, n);
    await page.reload();
    await page.getByText("Offline: working from what this device saved.").waitFor();
    for (let n = 7; n <= 10; n++) await receiveOne(page, n);
    await page.getByText(`${offlineWork.po.number} is received in full.`).waitFor();
    await page.getByRole("link", { name: "30 scans wait" }).waitFor();
    await screenshot(page, "offline-waiting-phone");
    // Nothing reached the server meanwhile.
    const before = await serverState(offlineTenant, offlineWork.pickList.id, offlineWork.po.id);
    expect(before.pickList.status).toBe("open");

    await page.context().setOffline(false);
    await allScansSent(page);
    const sent = await serverState(offlineTenant, offlineWork.pickList.id, offlineWork.po.id);
    const expected = await serverState(onlineTenant, onlineWork.pickList.id, onlineWork.po.id);
    expect(sent).toEqual(expected);
    expect(sent.pickList.status).toBe("completed");
    expect(sent.po.status).toBe("received");
    expectWellBehaved(page);
  });

  it("sends each scan exactly once when the page is killed in the middle of sending them", {
    timeout: 600_000,
  }, async () => {
    const tenant = await createTenant();
    const work = await floorWork(tenant, 5, 1);
    // This test loses one answer itself (the third pick's) and counts the replays: every other answer arrives.
    const page = await openPage(`/app/pick/${work.pickList.id}`, { phone: true, reliableNetwork: true });
    await signIn(page, tenant.email, tenant.password);
    await page.getByLabel("Scan location").waitFor();
    await serviceWorkerReady(page);
    const context = page.context();
    await context.setOffline(true);
    for (let i = 0; i < 5; i++) await pickNextLine(page, work.pickList);
    await page.getByText("5 scans wait to reach the server").waitFor();

    // The third pick reaches the server and is done there, but its answer never comes back: the page dies first.
    let picks = 0;
    let done: () => void = () => undefined;
    const third = new Promise<void>((resolve) => {
      done = resolve;
    });
    await context.route("**/api/v1/pick-lists/*/picks", async (route) => {
      picks++;
      if (picks !== 3) return route.continue();
      await route.fetch();
      done();
      await new Promise(() => undefined); // the answer is held until the page is gone
    });
    await context.setOffline(false);
    await third;
    await page.close();
    await context.unroute("**/api/v1/pick-lists/*/picks");

    const reopened = await context.newPage();
    const replayed: string[] = [];
    reopened.on("response", (response) => {
      if (response.url().endsWith("/picks") && response.headers()["idempotent-replayed"] === "true")
        replayed.push(response.url());
    });
    await reopened.goto(`/app/pick/${work.pickList.id}`);
    await allScansSent(reopened);
    await reopened.getByText("Pick list complete: every line is picked or short.").waitFor();
    // The third pick was sent again with its key: the server answered it from its record, and did it once.
    expect(replayed).toHaveLength(1);
    const pickList = await ok(
      tenant.api.GET("/api/v1/pick-lists/{id}", { params: { path: { id: work.pickList.id } } }),
    );
    expect(pickList.lines.map((l) => l.pickedQuantity - l.quantity)).toEqual([0, 0, 0, 0, 0]);
    const moves = await ok(
      tenant.api.GET("/api/v1/inventory/movements", {
        params: { query: { reference: work.pickList.id, pageSize: 100 } },
      }),
    );
    expect(moves.items).toHaveLength(10); // one row out of the bin and one into packing, per line
  });

  it("shows each scan refused because the pick list was cancelled while the device was offline, with what to do", {
    timeout: 600_000,
  }, async () => {
    const tenant = await createTenant();
    const work = await floorWork(tenant, 3, 1);
    // Every answer arrives (the lossy network would carry the offline picks through setOffline, see above).
    const page = await openPage(`/app/pick/${work.pickList.id}`, {
      phone: true,
      recordSignals: true,
      reliableNetwork: true,
    });
    await signIn(page, tenant.email, tenant.password);
    await page.getByLabel("Scan location").waitFor();
    await serviceWorkerReady(page);
    await page.context().setOffline(true);
    const picked = [await pickNextLine(page, work.pickList), await pickNextLine(page, work.pickList)];
    await page.getByText("2 scans wait to reach the server").waitFor();
    // Meanwhile the office cancels the pick list.
    await ok(
      tenant.api.POST("/api/v1/pick-lists/{id}/cancel", { params: { path: { id: work.pickList.id } } }),
    );
    await page.context().setOffline(false);
    const refused = page.getByRole("region", { name: "Scans the server refused" });
    await refused.getByText("2 scans were refused by the server").waitFor();
    for (const line of picked) {
      await refused
        .getByText(`What to do: Put ${line.quantity} ${line.sku} back in ${line.locationCode}.`)
        .waitFor();
    }
    await page.getByRole("link", { name: "2 refused" }).waitFor();
    await screenshot(page, "offline-refused-phone");
    // Dealt with, one at a time: each leaves the device only when the worker says so.
    await refused
      .getByRole("button", { name: new RegExp(`^Done: Pick ${picked[0]?.quantity} ${picked[0]?.sku}`) })
      .click();
    await refused.getByText("1 scan was refused by the server").waitFor();
    const pickList = await ok(
      tenant.api.GET("/api/v1/pick-lists/{id}", { params: { path: { id: work.pickList.id } } }),
    );
    expect(pickList.status).toBe("cancelled");
    expect(pickList.lines.every((l) => l.pickedQuantity === 0)).toBe(true);
    expectWellBehaved(page);
  });
});
