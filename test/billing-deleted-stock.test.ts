import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { takeStorageSnapshots } from "../src/billing/storage-snapshots";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  type TestTenant,
  unique,
} from "./support/builders";
import { tenantDatabase } from "./support/database";
import { call } from "./support/http";

// A storage snapshot the job missed is taken late from the ledger as it stood that day, including the stock of
// levels deleted since with their location, warehouse or product: priced by that location's type and charged to
// that product's merchant, though both rows are gone when the day is taken.

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

// Day D is 20 October; the job next runs on the 23rd.
const at = (day: number) => new Date(Date.UTC(2026, 9, day, 10, 0, 0)).toISOString();
const D = 20;

async function newMerchant() {
  const code = `DEL-${unique()}`;
  return (await call("POST", "/merchants", { headers: tenant.admin, body: { code, name: code } })).body.data
    .id as string;
}

interface StorageCharge {
  per: string;
  locationType: string | null;
  quantity: number;
  amountExact: string;
  date: string;
}

async function storageCharges(merchantId: string, day: number) {
  const date = at(day).slice(0, 10);
  const res = await call("GET", `/billing/charges?merchantId=${merchantId}&from=${date}&to=${date}`, {
    headers: tenant.admin,
  });
  expect(res.status).toBe(200);
  return (res.body.data.items as (StorageCharge & { activity: string })[])
    .filter((c) => c.activity === "storage")
    .map((c) => `${c.per} ${c.locationType ?? "-"} ${c.quantity} ${c.amountExact}`)
    .sort();
}

describe("a storage snapshot taken late", () => {
  it("charges stock whose location, warehouse or product was deleted since, by its location type and merchant", async () => {
    const db = await tenantDatabase(tenant.id);
    const [brand, otherBrand] = [await newMerchant(), await newMerchant()];
    const warehouse = await createWarehouse(tenant);
    const bin = await createLocation(tenant, warehouse.id);
    const shelf = await createLocation(tenant, warehouse.id, { type: "shelf", code: `S-${unique()}` });
    const closedWarehouse = await createWarehouse(tenant);
    const dock = await createLocation(tenant, closedWarehouse.id, { type: "dock", code: `D-${unique()}` });
    const kept = await createProduct(tenant, { merchantId: brand });
    const discontinued = await createProduct(tenant, { merchantId: otherBrand });
    for (const merchantId of [brand, otherBrand]) {
      const card = await call("POST", "/billing/rate-cards", {
        headers: tenant.admin,
        body: {
          merchantId,
          currency: "EUR",
          effectiveFrom: at(1).slice(0, 10),
          rates: [
            { activity: "storage", per: "unit_day", unitPrice: 0.01 },
            { activity: "storage", per: "location_day", locationType: "shelf", unitPrice: 0.5 },
            { activity: "storage", per: "location_day", locationType: "dock", unitPrice: 0.75 },
            { activity: "storage", per: "location_day", locationType: "bin", unitPrice: 0.25 },
          ],
        },
      });
      expect(card.status).toBe(201);
    }

    // Day D: the brand holds 2 in the bin, 5 on the shelf and 4 at the dock; the other brand 3 of its
    // discontinued product in the bin. Day D+1: all of it but the bin's 2 leaves.
    const received: [string, string, number][] = [
      [kept.id, bin.id, 2],
      [kept.id, shelf.id, 5],
      [kept.id, dock.id, 4],
      [discontinued.id, bin.id, 3],
    ];
    for (const [productId, locationId, quantity] of received)
      await adjustStock(tenant, productId, locationId, quantity);
    for (const [productId, locationId, quantity] of received.slice(1))
      await adjustStock(tenant, productId, locationId, -quantity);
    // The ledger as the two days wrote it (the adjustments ran just now).
    await db
      .prepare(
        "update stock_movements set created_at = case when delta > 0 then ? else ? end where tenant_id = ?",
      )
      .bind(at(D), at(D + 1), tenant.id)
      .run();
    for (const merchantId of [brand, otherBrand])
      await db
        .prepare("update merchants set created_at = ? where tenant_id = ? and id = ?")
        .bind(at(D), tenant.id, merchantId)
        .run();

    // Day D+2: the shelf, the closed warehouse (with its dock) and the discontinued product are deleted.
    for (const path of [
      `/locations/${shelf.id}`,
      `/warehouses/${closedWarehouse.id}`,
      `/products/${discontinued.id}`,
    ]) {
      const res = await call("DELETE", path as "/locations/{id}", { headers: tenant.admin });
      expect([200, 204], path).toContain(res.status);
    }
    await db
      .prepare("update deleted_stock_levels set deleted_at = ? where tenant_id = ?")
      .bind(at(D + 2), tenant.id)
      .run();

    // Day D+3: the job runs for the first time since D, twice at once, then again.
    const snapshots = async () =>
      (
        await db
          .prepare("select * from billing_storage_snapshots where tenant_id = ? order by merchant_id, day")
          .bind(tenant.id)
          .all()
      ).results;
    await Promise.all([
      takeStorageSnapshots(env, new Date(at(D + 3))),
      takeStorageSnapshots(env, new Date(at(D + 3))),
    ]);
    const taken = await snapshots();
    expect(taken).toHaveLength(6);

    expect(await storageCharges(brand, D)).toEqual(
      [
        "unit_day - 11 0.11",
        "location_day bin 1 0.25",
        "location_day shelf 1 0.5",
        "location_day dock 1 0.75",
      ].sort(),
    );
    expect(await storageCharges(otherBrand, D)).toEqual(["location_day bin 1 0.25", "unit_day - 3 0.03"]);
    // The day after, only the bin's 2 of the brand are left; the day of the deletes, the same.
    for (const day of [D + 1, D + 2]) {
      expect(await storageCharges(brand, day)).toEqual(["location_day bin 1 0.25", "unit_day - 2 0.02"]);
      expect(await storageCharges(otherBrand, day)).toEqual([]);
    }

    await takeStorageSnapshots(env, new Date(at(D + 3)));
    expect(await snapshots()).toEqual(taken);
  });
});
