import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createTenant,
  createWarehouse,
  scopedKey,
  stockedProduct,
  type TestTenant,
} from "./support/builders";
import { call } from "./support/http";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

describe("warehouses", () => {
  it("CRUD with unique codes per tenant", async () => {
    const res = await call("POST", "/warehouses", {
      headers: tenant.admin,
      body: { code: "BER-1", name: "Berlin", address: { city: "Berlin", country: "DE" } },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ code: "BER-1", active: true, address: { city: "Berlin" } });
    const dup = await call("POST", "/warehouses", {
      headers: tenant.admin,
      body: { code: "BER-1", name: "x" },
    });
    expect(dup.status).toBe(409);
    const put = await call("PUT", `/warehouses/${res.body.data.id}`, {
      headers: tenant.admin,
      body: { code: "BER-1", name: "Berlin Nord", active: false },
    });
    expect(put.body.data).toMatchObject({ name: "Berlin Nord", active: false, address: null });
    const list = await call("GET", "/warehouses?search=nord", { headers: tenant.admin });
    expect(list.body.data.items.map((w: { id: string }) => w.id)).toEqual([res.body.data.id]);
    expect(
      (await call("POST", "/warehouses", { headers: tenant.admin, body: { name: "x" } })).body.errors,
    ).toEqual(["code: Code is required"]);
  });

  it("refuse deletion while holding stock; otherwise delete with their empty locations", async () => {
    const { warehouseId, locationId, productId } = await stockedProduct(tenant, 1);
    expect((await call("DELETE", `/warehouses/${warehouseId}`, { headers: tenant.admin })).status).toBe(409);
    await adjustStock(tenant, productId, locationId, -1);
    expect((await call("DELETE", `/warehouses/${warehouseId}`, { headers: tenant.admin })).status).toBe(200);
    expect((await call("GET", `/locations/${locationId}`, { headers: tenant.admin })).status).toBe(404);
  });
});

describe("locations", () => {
  it("CRUD with codes unique within a warehouse, types, parents and filters", async () => {
    const a = await createWarehouse(tenant);
    const b = await createWarehouse(tenant);
    const zone = await createLocation(tenant, a.id, { code: "Z1", type: "zone", name: "Zone 1" });
    const bin = await createLocation(tenant, a.id, { code: "Z1-B1", type: "bin", parentId: zone.id });
    expect(bin).toMatchObject({ warehouseId: a.id, parentId: zone.id, type: "bin", active: true });
    const dup = await call("POST", "/locations", {
      headers: tenant.admin,
      body: { warehouseId: a.id, code: "Z1", name: "x", type: "zone" },
    });
    expect(dup.status).toBe(409);
    await createLocation(tenant, b.id, { code: "Z1", type: "zone" }); // same code, other warehouse
    const foreignParent = await call("POST", "/locations", {
      headers: tenant.admin,
      body: { warehouseId: b.id, code: "X", name: "x", type: "bin", parentId: zone.id },
    });
    expect(foreignParent.status).toBe(400);
    const badType = await call("POST", "/locations", {
      headers: tenant.admin,
      body: { warehouseId: a.id, code: "Y", name: "y", type: "cave" },
    });
    expect(badType.body.errors?.[0]).toMatch(/^type: must be one of zone, aisle/);
    const zones = await call("GET", `/locations?warehouseId=${a.id}&type=zone`, { headers: tenant.admin });
    expect(zones.body.data.items.map((l: { id: string }) => l.id)).toEqual([zone.id]);
    const searched = await call("GET", `/locations?search=z1-b&warehouseId=${a.id}`, {
      headers: tenant.admin,
    });
    expect(searched.body.data.totalCount).toBe(1);
    // LIKE's wildcards in a search are literal characters, as in the orders' search.
    const underscored = await createLocation(tenant, a.id, { code: "Z1_B9", type: "bin" });
    const literal = await call("GET", `/locations?search=z1_b&warehouseId=${a.id}`, {
      headers: tenant.admin,
    });
    expect(literal.body.data.items.map((l: { id: string }) => l.id)).toEqual([underscored.id]);
    const put = await call("PUT", `/locations/${bin.id}`, {
      headers: tenant.admin,
      body: { code: "Z1-B1", name: "Renamed", type: "shelf", parentId: zone.id, active: false },
    });
    expect(put.body.data).toMatchObject({ name: "Renamed", type: "shelf", active: false });
    expect((await call("DELETE", `/locations/${zone.id}`, { headers: tenant.admin })).status).toBe(409); // has a child
    expect((await call("DELETE", `/locations/${bin.id}`, { headers: tenant.admin })).status).toBe(200);
    expect((await call("DELETE", `/locations/${zone.id}`, { headers: tenant.admin })).status).toBe(200);
  });

  it("refuse deleting a location that holds stock", async () => {
    const { locationId } = await stockedProduct(tenant, 3);
    const res = await call("DELETE", `/locations/${locationId}`, { headers: tenant.admin });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/holds stock/);
  });

  it("scopes: read:inventory to read, write:inventory to write; other tenants get 404", async () => {
    const warehouse = await createWarehouse(tenant);
    const location = await createLocation(tenant, warehouse.id);
    const reader = await scopedKey(tenant, ["read:inventory"]);
    expect((await call("GET", `/locations/${location.id}`, { headers: reader })).status).toBe(200);
    expect((await call("GET", `/warehouses/${warehouse.id}`, { headers: reader })).status).toBe(200);
    expect((await call("DELETE", `/locations/${location.id}`, { headers: reader })).status).toBe(403);
    expect(
      (await call("POST", "/warehouses", { headers: reader, body: { code: "A", name: "a" } })).status,
    ).toBe(403);
    expect((await call("GET", "/locations")).status).toBe(401);
    const other = await createTenant();
    expect((await call("GET", `/locations/${location.id}`, { headers: other.admin })).status).toBe(404);
    expect((await call("DELETE", `/warehouses/${warehouse.id}`, { headers: other.admin })).status).toBe(404);
    const foreign = await call("POST", "/locations", {
      headers: other.admin,
      body: { warehouseId: warehouse.id, code: "Q", name: "q", type: "bin" },
    });
    expect(foreign.status).toBe(404);
  });

  it("unknown ids and another tenant's ids are 404 for every method; list pages are bounded", async () => {
    const writer = await scopedKey(tenant, ["read:inventory", "write:inventory"]);
    const warehouse = await createWarehouse(writer); // the helpers also take request headers
    const location = await createLocation(writer, warehouse.id);
    const other = await createTenant();
    const unknown = crypto.randomUUID();
    const cases = [
      ["warehouses", warehouse.id, { code: "X", name: "x" }],
      ["locations", location.id, { code: "X", name: "x", type: "bin" }],
    ] as const;
    for (const [resource, id, body] of cases) {
      for (const [who, target] of [
        [tenant.admin, unknown],
        [other.admin, id],
      ] as const) {
        for (const method of ["GET", "PUT", "DELETE"] as const) {
          const res = await call(method, `/${resource}/${target}`, {
            headers: who,
            body: method === "PUT" ? body : undefined,
          });
          expect(res.status, `${method} ${resource}`).toBe(404);
        }
      }
      expect((await call("GET", `/${resource}/${id}`, { headers: tenant.admin })).body.data.code).not.toBe(
        "X",
      );
      for (const query of ["pageSize=0", "pageSize=101", "page=0"]) {
        expect((await call("GET", `/${resource}?${query}`, { headers: tenant.admin })).status, query).toBe(
          400,
        );
      }
      const past = await call("GET", `/${resource}?page=500`, { headers: tenant.admin });
      expect(past.body.data.items).toEqual([]);
    }
    const otherList = await call("GET", "/warehouses", { headers: other.admin });
    expect(otherList.body.data.totalCount).toBe(0);
  });
});
