import { describe, expect, it } from "vitest";
import { gs1CheckDigit } from "../src/gs1/check-digit";
import { createTenant, ok } from "./support/api";
import { expectFitsPhone, expectWellBehaved, openPage, screenshot, signIn, wedge } from "./support/browser";
import { MUG_BARCODE, mainWithBins, mugWithCase } from "./support/seed";

const SOAP_BARCODE = `200000000002${gs1CheckDigit("200000000002")}`;

describe("counting on the floor", () => {
  it("counts a warehouse blind by wedge scans at phone size and submits it with its variances", {
    timeout: 240_000,
  }, async () => {
    const tenant = await createTenant();
    const { api } = tenant;
    const { main, a1, a2 } = await mainWithBins(tenant);
    const mug = await mugWithCase(tenant, "12000000000029");
    const pen = await ok(api.POST("/api/v1/products", { body: { sku: "PEN-1", name: "Pen" } }));
    const soap = await ok(
      api.POST("/api/v1/products", {
        body: { sku: "SOAP-1", name: "Dish soap", barcode: SOAP_BARCODE, tracking: "lot" },
      }),
    );
    const adjust = (body: Record<string, unknown>) =>
      ok(api.POST("/api/v1/inventory/adjustments", { body: { reason: "received", ...body } as never }));
    await adjust({ productId: mug.id, locationId: a1.id, quantity: 20 });
    await adjust({ productId: pen.id, locationId: a1.id, quantity: 10 });
    await adjust({
      productId: soap.id,
      locationId: a2.id,
      quantity: 5,
      lotNumber: "L-1",
      expiresAt: "2027-06-30",
    });
    const count = await ok(api.POST("/api/v1/inventory/counts", { body: { warehouseId: main.id } }));

    const phone = await openPage("/app/count", { phone: true });
    await signIn(phone, tenant.email, tenant.password);
    await phone.getByRole("link", { name: new RegExp(`Count ${count.id.slice(-6)}`) }).click();
    await phone.getByLabel("Scan location").waitFor();
    // Blind: what the stock should be is not on the screen.
    expect(await phone.getByText(/\d expected/).count()).toBe(0);

    // A1: 18 mugs typed (2 missing), then pens: a case is refused for them, ten scanned as a number.
    await wedge(phone, "A1");
    await wedge(phone, MUG_BARCODE);
    await phone.getByLabel("Quantity of MUG-1 (or scan each)").waitFor();
    await wedge(phone, "12000000000029"); // a case: 4
    await phone.getByText("MUG-1: 4 counted at A1").waitFor();
    await wedge(phone, MUG_BARCODE); // the product again: one more
    await phone.getByText("MUG-1: 5 counted at A1").waitFor();
    await wedge(phone, "13");
    await phone.getByText("MUG-1: 18 counted at A1").waitFor();
    await wedge(phone, "PEN-1");
    await wedge(phone, "10");
    await phone.getByText("PEN-1: 10 counted at A1").waitFor();
    await expectFitsPhone(phone, "count screen at 390 px");

    // A2: the soap by one GS1 code carrying its GTIN and lot; six found, one more than the books say.
    await wedge(phone, "A2");
    await wedge(phone, `(01)0${SOAP_BARCODE}(10)L-1`);
    await phone.getByLabel("Quantity of SOAP-1 lot L-1 (or scan each)").waitFor();
    await wedge(phone, "6");
    await phone.getByText("SOAP-1: 6 counted at A2").waitFor();
    await screenshot(phone, "count-floor-phone");

    await phone.getByRole("button", { name: "Submit count" }).click();
    await phone.getByRole("dialog").getByRole("button", { name: "Submit count" }).click();
    await phone.waitForURL(new RegExp(`/app/counts/${count.id}$`));
    await phone.locator(".details .badge", { hasText: "submitted" }).waitFor();

    const submitted = await ok(
      api.GET("/api/v1/inventory/counts/{id}", { params: { path: { id: count.id } } }),
    );
    expect(submitted.status).toBe("submitted");
    const variances = submitted.lines
      .map((l) => [l.sku, l.locationCode, l.lotNumber, l.counted, l.variance])
      .sort();
    expect(variances).toEqual([
      ["MUG-1", "A1", null, 18, -2],
      ["PEN-1", "A1", null, 10, 0],
      ["SOAP-1", "A2", "L-1", 6, 1],
    ]);
    expectWellBehaved(phone);
  });

  it("keeps a count's submit back while a line of it the server refused is on the device, then submits it when dealt with", {
    timeout: 240_000,
  }, async () => {
    const tenant = await createTenant();
    const { api } = tenant;
    const { main, a1 } = await mainWithBins(tenant);
    const mug = await mugWithCase(tenant, "12000000000029");
    const pen = await ok(api.POST("/api/v1/products", { body: { sku: "PEN-1", name: "Pen" } }));
    await ok(
      api.POST("/api/v1/inventory/adjustments", {
        body: { productId: mug.id, locationId: a1.id, quantity: 20, reason: "received" },
      }),
    );
    const count = await ok(api.POST("/api/v1/inventory/counts", { body: { warehouseId: main.id } }));
    const readCount = () =>
      ok(api.GET("/api/v1/inventory/counts/{id}", { params: { path: { id: count.id } } }));

    // Every answer arrives: the lossy test network would carry the offline line through setOffline.
    const phone = await openPage("/app/count", { phone: true, reliableNetwork: true });
    await signIn(phone, tenant.email, tenant.password);
    await phone.getByRole("link", { name: new RegExp(`Count ${count.id.slice(-6)}`) }).click();
    await phone.getByLabel("Scan location").waitFor();
    await wedge(phone, "A1");
    await wedge(phone, MUG_BARCODE);
    await wedge(phone, "20");
    await phone.getByText("MUG-1: 20 counted at A1").waitFor();
    await wedge(phone, "PEN-1");
    await phone.getByLabel("Quantity of PEN-1 (or scan each)").waitFor();

    // Offline, three pens are counted and the count submitted; meanwhile the office makes pens lot-tracked,
    // so the server refuses the pen line (it names no lot) when the device is back.
    await phone.context().setOffline(true);
    await wedge(phone, "3");
    await phone.getByText("PEN-1: 3 counted at A1").waitFor();
    await phone.getByRole("button", { name: "Submit count" }).click();
    await phone.getByRole("dialog").getByRole("button", { name: "Submit count" }).click();
    await phone.getByText(/is submitted on this device/).waitFor();
    await ok(
      api.PATCH("/api/v1/products/{id}", { params: { path: { id: pen.id } }, body: { tracking: "lot" } }),
    );
    await phone.context().setOffline(false);

    const refused = phone.getByRole("region", { name: "Scans the server refused" });
    await refused.getByText("2 scans were refused by the server").waitFor();
    await refused.getByText("Not sent: a counted line of this count was refused.").waitFor();
    // The office would otherwise approve a count that lacks the pens.
    expect((await readCount()).status).toBe("open");
    const submitButton = phone.getByRole("button", { name: "Submit count", exact: true });
    expect(await submitButton.isDisabled()).toBe(true);
    await phone.getByText(/Submit waits until every refused scan above is dealt with/).waitFor();

    // The worker deals with the pen line (here: not counting it again) and takes the held submit off too.
    await refused.getByText("What to do: Count PEN-1 at A1 again.").waitFor();
    await refused.getByRole("button", { name: "Done: Count 3 PEN-1 at A1" }).click();
    await refused.getByText("1 scan was refused by the server").waitFor();
    await refused.getByRole("button", { name: `Done: Submit Count ${count.id.slice(-6)}` }).click();
    await refused.waitFor({ state: "detached" });
    await submitButton.click();
    await phone.getByRole("dialog").getByRole("button", { name: "Submit count" }).click();
    await phone.waitForURL(new RegExp(`/app/counts/${count.id}$`));
    const submitted = await readCount();
    expect(submitted.status).toBe("submitted");
    expect(submitted.lines.map((l) => [l.sku, l.counted])).toEqual([["MUG-1", 20]]);
    expectWellBehaved(phone);
  });
});
