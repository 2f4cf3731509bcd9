import { beforeAll, describe, expect, it } from "vitest";
import { levelsIn } from "./support/api-types";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  salesOrder,
  type TestTenant,
} from "./support/builders";
import { checkedStockOf } from "./support/database";
import { BASE, call, fetchApi } from "./support/http";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

/** A product with 5 units in a sellable bin and 4 in a quarantine bin of one warehouse (reorder point 6). */
async function quarantined(extra: Record<string, unknown> = {}) {
  const warehouse = await createWarehouse(tenant);
  const bin = await createLocation(tenant, warehouse.id);
  const quarantine = await createLocation(tenant, warehouse.id, { sellable: false });
  expect(quarantine.sellable).toBe(false);
  expect(bin.sellable).toBe(true);
  const product = await createProduct(tenant, { reorderPoint: 6, ...extra });
  await adjustStock(tenant, product.id, bin.id, 5);
  await adjustStock(tenant, product.id, quarantine.id, 4);
  return { warehouse, bin, quarantine, product };
}

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe("non-sellable locations", () => {
  it("count in on hand but are never available, reserved or held; a transfer moves the stock back", async () => {
    const { warehouse, bin, quarantine, product } = await quarantined();
    const stock = await call("GET", `/inventory/stock?productId=${product.id}`, { headers: tenant.admin });
    expect(
      levelsIn(stock.body.data).map((l) => [
        l.locationId,
        l.onHand,
        "available" in l && l.available,
        "sellable" in l && l.sellable,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [bin.id, 5, 5, true],
        [quarantine.id, 4, 0, false],
      ]),
    );
    // 9 on hand, 5 available: at or below the reorder point of 6.
    const low = await call("GET", `/inventory/stock?productId=${product.id}&belowReorderPoint=true`, {
      headers: tenant.admin,
    });
    expect(low.body.data.totalCount).toBe(2);

    const order = await salesOrder(tenant, [{ productId: product.id, quantity: 6 }], {
      warehouseId: warehouse.id,
    });
    expect(order.status).toBe(409);
    expect(order.body.errors).toEqual([
      `lines[0]: product ${product.sku} (${product.id}) requested 6, available 5`,
    ]);
    const hold = await call("POST", "/inventory/holds", {
      headers: tenant.admin,
      body: { productId: product.id, quantity: 1, locationId: quarantine.id, expiresAt: inAnHour() },
    });
    expect(hold.status).toBe(409);

    const back = await call("POST", "/inventory/transfers", {
      headers: tenant.admin,
      body: { productId: product.id, fromLocationId: quarantine.id, toLocationId: bin.id, quantity: 4 },
    });
    expect(back.status).toBe(201);
    expect(back.body.data.from).toMatchObject({ onHand: 0, available: 0, sellable: false });
    expect(back.body.data.to).toMatchObject({ onHand: 9, available: 9, sellable: true });
    expect(
      (await salesOrder(tenant, [{ productId: product.id, quantity: 6 }], { warehouseId: warehouse.id }))
        .status,
    ).toBe(201);
    await checkedStockOf(tenant, product.id);
  });

  it("are listed apart: ?sellable= filters the stock list, low stock and valuation separate their units", async () => {
    const category = `Q-${crypto.randomUUID()}`;
    const { warehouse, bin, quarantine, product } = await quarantined({ cost: 2.5, category });
    const list = async (sellable: string) => {
      const res = await call("GET", `/inventory/stock?productId=${product.id}&sellable=${sellable}`, {
        headers: tenant.admin,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return [res.body.data.totalCount, levelsIn(res.body.data).map((l) => l.locationId)];
    };
    expect(await list("true")).toEqual([1, [bin.id]]);
    expect(await list("false")).toEqual([1, [quarantine.id]]);
    const bad = await call("GET", "/inventory/stock?sellable=yes", { headers: tenant.admin });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(["sellable: must be true or false"]);

    // 9 on hand but 5 available (4 in quarantine): at or below the reorder point of 6.
    const low = await call("GET", `/reports/low-stock?category=${category}`, { headers: tenant.admin });
    expect(low.status, JSON.stringify(low.body)).toBe(200);
    expect(low.body.data.items).toMatchObject([
      {
        productId: product.id,
        warehouseId: warehouse.id,
        onHand: 9,
        nonSellable: 4,
        available: 5,
        shortfall: 1,
      },
    ]);
    const csv = await fetchApi(
      new Request(`${BASE}/reports/low-stock?category=${category}&format=csv`, { headers: tenant.admin }),
    );
    const [header, row] = (await csv.text()).split("\r\n");
    const cells = Object.fromEntries(header?.split(",").map((h, i) => [h, row?.split(",")[i]]) ?? []);
    expect(cells).toMatchObject({ onHand: "9", nonSellable: "4", available: "5", shortfall: "1" });

    const valuation = await call("GET", `/reports/inventory-valuation?category=${category}`, {
      headers: tenant.admin,
    });
    expect(valuation.status, JSON.stringify(valuation.body)).toBe(200);
    expect(valuation.body.data.items).toMatchObject([
      { onHand: 9, nonSellable: 4, value: 22.5, sellableValue: 12.5, nonSellableValue: 10 },
    ]);
    expect(valuation.body.data.totals).toMatchObject({
      onHand: 9,
      nonSellable: 4,
      available: 5,
      value: 22.5,
      sellableValueExact: "12.5",
      nonSellableValueExact: "10",
      byWarehouse: [{ warehouseId: warehouse.id, nonSellable: 4, available: 5, sellableValue: 12.5 }],
    });
  });

  it("a location holding reserved stock cannot become non-sellable; a packing location never is", async () => {
    const { warehouse, bin, product } = await quarantined();
    const order = await salesOrder(tenant, [{ productId: product.id, quantity: 2 }], {
      warehouseId: warehouse.id,
    });
    expect(order.status).toBe(201);
    const put = (body: Record<string, unknown>) =>
      call("PUT", `/locations/${bin.id}`, {
        headers: tenant.admin,
        body: { code: bin.code, name: bin.name, type: bin.type, ...body },
      });
    const refused = await put({ sellable: false });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/holds stock reserved for orders or holds/);
    expect((await call("GET", `/locations/${bin.id}`, { headers: tenant.admin })).body.data.sellable).toBe(
      true,
    );
    await call("PATCH", `/orders/${order.body.data.id}/status`, {
      headers: tenant.admin,
      body: { status: "cancelled" },
    });
    expect((await put({ sellable: false })).body.data.sellable).toBe(false);
    expect((await put({ sellable: true })).body.data.sellable).toBe(true);

    const packing = await call("POST", "/locations", {
      headers: tenant.admin,
      body: { warehouseId: warehouse.id, code: "PACK-2", name: "Pack", type: "packing", sellable: false },
    });
    expect(packing.status).toBe(409);
    expect(packing.body.message).toBe(
      "A packing location holds picked units reserved for orders; it is always sellable",
    );
  });

  it("the database refuses reserving at a non-sellable location whatever the request planned", async () => {
    const { quarantine, product } = await quarantined();
    const { tenantDatabase } = await import("./support/database");
    const db = await tenantDatabase(tenant.id);
    await expect(
      db
        .prepare(
          "update stock_levels set reserved = reserved + 1 where tenant_id = ? and product_id = ? and location_id = ?",
        )
        .bind(tenant.id, product.id, quarantine.id)
        .run(),
    ).rejects.toThrow(/location_not_sellable/);
  });
});
