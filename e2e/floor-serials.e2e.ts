import { describe, expect, it } from "vitest";
import { gs1CheckDigit } from "../src/gs1/check-digit";
import { createTenant, ok } from "./support/api";
import {
  allScansSent,
  expectFitsPhone,
  expectWellBehaved,
  openPage,
  screenshot,
  signIn,
  wedge,
} from "./support/browser";
import { confirmedSale, mainWithBins } from "./support/seed";

const CAMERA_BARCODE = `200000000050${gs1CheckDigit("200000000050")}`;

describe("serial numbers on the floor and in the office", () => {
  it("receives, picks (skipping a line and coming back to it), adjusts, transfers and counts serial-tracked units one serial each", {
    timeout: 480_000,
  }, async () => {
    const tenant = await createTenant();
    const { api } = tenant;
    const { main, a1, a2 } = await mainWithBins(tenant);
    const camera = await ok(
      api.POST("/api/v1/products", {
        body: { sku: "CAM-1", name: "Camera", barcode: CAMERA_BARCODE, tracking: "serial", price: 100 },
      }),
    );
    const pen = await ok(api.POST("/api/v1/products", { body: { sku: "PEN-1", name: "Pen", price: 1 } }));
    await ok(
      api.POST("/api/v1/inventory/adjustments", {
        body: { productId: pen.id, locationId: a2.id, quantity: 10, reason: "received" },
      }),
    );
    const po = await ok(
      api.POST("/api/v1/orders/purchase", {
        body: {
          supplier: "Acme",
          warehouseId: main.id,
          lines: [{ productId: camera.id, quantity: 3, cost: 50 }],
        },
      }),
    );
    await ok(
      api.PATCH("/api/v1/orders/{id}/status", {
        params: { path: { id: po.id } },
        body: { status: "ordered" },
      }),
    );

    // Receive: one serial per unit, the last one from a GS1 code (GTIN and serial in one scan).
    const phone = await openPage(`/app/receive/${po.id}`, { phone: true });
    await signIn(phone, tenant.email, tenant.password);
    await phone.getByLabel("Scan product").waitFor();
    await wedge(phone, CAMERA_BARCODE);
    await wedge(phone, "A1");
    await phone.getByLabel("Serial number 1 of 3").waitFor();
    await wedge(phone, "SN-1");
    await phone.getByText("Received CAM-1 serial SN-1 into A1").waitFor();
    await wedge(phone, "SN-1");
    await phone.getByRole("alert").getByText("Serial number SN-1 is received already").waitFor();
    await wedge(phone, "SN-2");
    await phone.getByLabel("Serial number 3 of 3").waitFor();
    await wedge(phone, `(01)0${CAMERA_BARCODE}(21)SN-3`);
    await phone.getByText(`${po.number} is received in full.`).waitFor();
    await expectFitsPhone(phone, "serial receipt at 390 px");
    await allScansSent(phone);

    // Pick: a sales order of 2 cameras and a pen. The camera line is skipped, the pen picked, the camera after.
    const order = await confirmedSale(tenant, [
      { productId: camera.id, quantity: 2 },
      { productId: pen.id, quantity: 1 },
    ]);
    const pickList = await ok(
      api.POST("/api/v1/pick-lists", { body: { warehouseId: main.id, orderIds: [order.id] } }),
    );
    await phone.goto(`/app/pick/${pickList.id}`);
    const cameraLine = phone.getByRole("region", { name: "Line 1" });
    await cameraLine.getByText("CAM-1").waitFor();
    await phone.getByRole("button", { name: "Skip line" }).click();
    await phone.getByRole("region", { name: "Line 2" }).getByText("PEN-1").waitFor();
    await wedge(phone, "A2");
    await wedge(phone, "PEN-1");
    await expect.poll(() => phone.getByLabel("Quantity").inputValue(), { timeout: 15_000 }).toBe("1");
    await wedge(phone, "1");
    await cameraLine.getByText("skipped earlier", { exact: false }).waitFor();
    await wedge(phone, "A1");
    await wedge(phone, CAMERA_BARCODE);
    await phone.getByLabel("Serial number 1 of 2").waitFor();
    await wedge(phone, "SN-2");
    await phone.getByLabel("Serial number 2 of 2").waitFor();
    await wedge(phone, "SN-3");
    await phone.getByText("Pick list complete: every line is picked or short.").waitFor();
    await screenshot(phone, "pick-serials-phone");
    await allScansSent(phone);
    const picked = await ok(
      api.GET("/api/v1/inventory/movements", {
        params: { query: { reference: pickList.id, productId: camera.id, pageSize: 100 } },
      }),
    );
    expect(
      picked.items
        .filter((m) => m.delta < 0)
        .flatMap((m) => m.serialNumbers ?? [])
        .sort(),
    ).toEqual(["SN-2", "SN-3"]);

    // The office: Adjust adds two units by serial, Transfer moves one of them to A2.
    const office = await openPage("/app/stock?sku=CAM-1");
    await signIn(office, tenant.email, tenant.password);
    await office.getByRole("button", { name: "Adjust CAM-1 at A1" }).click();
    const adjust = office.getByRole("dialog", { name: /^Adjust CAM-1 at A1/ });
    const serial = adjust.getByLabel("Serial number (scan each unit, then Enter)");
    for (const code of ["SN-7", "SN-8"]) {
      await serial.fill(code);
      await serial.press("Enter");
    }
    await adjust.getByText("2 serial numbers:").waitFor();
    await adjust.getByRole("button", { name: "Adjust" }).click();
    await adjust.waitFor({ state: "detached" });
    await office.getByRole("button", { name: "Transfer CAM-1 from A1" }).click();
    const transfer = office.getByRole("dialog", { name: /^Transfer CAM-1 at A1/ });
    await transfer.getByLabel("Serial number (scan each unit, then Enter)").fill("SN-7");
    await transfer.getByLabel("Serial number (scan each unit, then Enter)").press("Enter");
    await transfer.getByLabel("To location").selectOption({ label: "MAIN · A2" });
    await transfer.getByRole("button", { name: "Transfer" }).click();
    await transfer.waitFor({ state: "detached" });
    const stock = await ok(
      api.GET("/api/v1/inventory/stock", { params: { query: { productId: camera.id } } }),
    );
    expect(stock.items.flatMap((l) => ("reserved" in l ? [[l.locationCode, l.onHand]] : [])).sort()).toEqual([
      ["A1", 2],
      ["A2", 1],
      ["PACKING", 2],
    ]);

    // Count A1 and A2 on the floor: A1's serials scanned (SN-1 and SN-8 are there, SN-9 is found too); at A2
    // the camera is not found (0 before any serial), so the SN-7 moved there is missing.
    const count = await ok(api.POST("/api/v1/inventory/counts", { body: { locationIds: [a1.id, a2.id] } }));
    await phone.goto(`/app/count/${count.id}`);
    await phone.getByLabel("Scan location").waitFor();
    await wedge(phone, "A1");
    await wedge(phone, CAMERA_BARCODE);
    await phone.getByLabel("Serial number of CAM-1 (nothing: done; 0: none here)").waitFor();
    for (const code of ["SN-1", "SN-8", "SN-9"]) await wedge(phone, code);
    await phone.getByText("CAM-1 serial SN-9: 3 counted at A1").waitFor();
    await wedge(phone, "");
    await wedge(phone, "A2");
    await wedge(phone, CAMERA_BARCODE);
    await phone.getByLabel("Serial number of CAM-1 (nothing: done; 0: none here)").waitFor();
    await wedge(phone, "0");
    await phone.getByText("CAM-1: none counted at A2").waitFor();
    await phone.getByRole("button", { name: "Submit count" }).click();
    await phone.getByRole("dialog").getByRole("button", { name: "Submit count" }).click();
    await phone.waitForURL(new RegExp(`/app/counts/${count.id}$`));
    const counted = await ok(
      api.GET("/api/v1/inventory/counts/{id}", { params: { path: { id: count.id } } }),
    );
    expect(counted.lines.find((l) => l.sku === "CAM-1" && l.locationId === a2.id)).toMatchObject({
      counted: 0,
      serialNumbers: [],
      missingSerials: ["SN-7"],
    });
    expect(counted.lines.find((l) => l.sku === "CAM-1" && l.locationId === a1.id)).toMatchObject({
      counted: 3,
      serialNumbers: ["SN-1", "SN-8", "SN-9"],
      foundSerials: ["SN-9"],
      missingSerials: [],
    });
    expectWellBehaved(phone);
    expectWellBehaved(office);
  });
});
