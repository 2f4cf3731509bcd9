import { beforeAll, describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  scopedKey,
  stockedProduct,
  type TestTenant,
  tenantWithWarehouse,
} from "./support/builders";
import { outboxEvents, stockOf } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
let warehouseId: string;
beforeAll(async () => {
  ({ tenant, warehouseId } = await tenantWithWarehouse());
});

const hopsOf = (response: { headers: Headers }) =>
  Number(/hops=(\d+)/.exec(response.headers.get("X-D1-Stats") ?? "")?.[1]);

const adjust = (body: Record<string, unknown>, headers = tenant.admin) =>
  call("POST", "/inventory/adjustments", { headers, body });

/** A new product and a new bin in the warehouse, with no stock yet: just the ids an adjustment names. */
async function freshLevel(reorderPoint = 0) {
  const { productId, locationId } = await stockedProduct(tenant, 0, {
    warehouseId,
    product: { reorderPoint },
  });
  return { productId, locationId };
}

describe("adjustments", () => {
  it("add and remove stock, returning the ledger row and the resulting level", async () => {
    const { productId, locationId } = await freshLevel();
    const added = await adjust({ productId, locationId, quantity: 12, reason: "received", notes: "first" });
    expect(added.status).toBe(201);
    expect(added.body.data.stockLevel).toMatchObject({
      productId,
      locationId,
      warehouseId,
      onHand: 12,
      reserved: 0,
      available: 12,
    });
    expect(added.body.data.movement).toMatchObject({
      productId,
      locationId,
      delta: 12,
      onHandAfter: 12,
      reason: "received",
      notes: "first",
      actorType: "api_key",
    });
    expect(added.body.data.movement.requestId).toBe(added.headers.get("x-request-id"));

    const removed = await adjust({ productId, locationId, quantity: -5, reason: "damaged" });
    expect(removed.status).toBe(201);
    expect(removed.body.data.stockLevel.onHand).toBe(7);
    expect(removed.body.data.movement).toMatchObject({ delta: -5, onHandAfter: 7 });
  });

  it("refuse to remove more than is available, saying what is, and change nothing", async () => {
    const { productId, locationId } = await freshLevel();
    await adjustStock(tenant, productId, locationId, 3);
    const res = await adjust({ productId, locationId, quantity: -4, reason: "count" });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("Insufficient stock: requested 4, available 3");
    const empty = await freshLevel();
    const none = await adjust({ ...empty, quantity: -1, reason: "count" });
    expect(none.status).toBe(409);
    expect(none.body.message).toMatch(/available 0/);
    const levels = await stockOf(tenant, productId);
    expect(levels).toEqual([expect.objectContaining({ onHand: 3, ledger: 3 })]);
  });

  it("validate the body: zero, fractions, missing reason, unknown fields", async () => {
    const { productId, locationId } = await freshLevel();
    const res = await adjust({ productId, locationId, quantity: 0, reason: "" });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(["quantity: must not be zero", "reason: Reason is required"]);
    const fraction = await adjust({ productId, locationId, quantity: 1.5, reason: "x", colour: "red" });
    expect(fraction.status).toBe(400);
    expect(fraction.body.errors).toEqual(expect.arrayContaining(["quantity: must be an integer"]));
    const long = await adjust({ productId, locationId, quantity: 1, reason: "x".repeat(65) });
    expect(long.status).toBe(400);
  });

  it("cost the key's lookup and one batch: two sequential round trips, two D1 calls", async () => {
    const { productId, locationId } = await freshLevel();
    for (const quantity of [5, -2]) {
      const adjusted = await adjust({ productId, locationId, quantity, reason: "count" });
      expect(adjusted.status).toBe(201);
      expect(hopsOf(adjusted)).toBe(2);
      expect(adjusted.headers.get("X-D1-Stats")).toContain("calls=2;");
    }
    const [level] = await stockOf(tenant, productId);
    expect(level).toMatchObject({ onHand: 3, ledger: 3 });
  });

  it("checked in their batch: a kit, a tracked product or an inactive location is refused as before, writing nothing", async () => {
    const { productId, locationId } = await freshLevel();
    const kit = await createProduct(tenant, { type: "kit", components: [{ productId, quantity: 1 }] });
    const kitAdjusted = await adjust({ productId: kit.id, locationId, quantity: 1, reason: "x" });
    expect(kitAdjusted.status).toBe(400);
    expect(kitAdjusted.body.errors).toEqual([expect.stringMatching(/is a kit: it never holds stock/)]);
    const lotted = await createProduct(tenant, { tracking: "lot" });
    const unnamed = await adjust({ productId: lotted.id, locationId, quantity: 1, reason: "x" });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.errors).toEqual([
      expect.stringMatching(/^lotNumber: product .* is lot-tracked: name the lot$/),
    ]);
    const closed = await createLocation(tenant, warehouseId, { active: false });
    const inactive = await adjust({ productId, locationId: closed.id, quantity: 1, reason: "x" });
    expect(inactive.status).toBe(409);
    expect(inactive.body.message).toMatch(/is inactive and cannot receive stock$/);
    const ids: unknown[] = [productId, kit.id, lotted.id];
    for (const id of [productId, kit.id, lotted.id]) expect(await stockOf(tenant, id)).toEqual([]);
    const events = await outboxEvents(tenant, /^inventory\./);
    expect(events.filter((e) => ids.includes(e.payload.productId))).toEqual([]);
  });

  it("name which of product and location is unknown (404), including another tenant's", async () => {
    const { productId, locationId } = await freshLevel();
    const missingProduct = await adjust({
      productId: crypto.randomUUID(),
      locationId,
      quantity: 1,
      reason: "x",
    });
    expect(missingProduct.status).toBe(404);
    expect(missingProduct.body.message).toMatch(/^productId: product .* not found$/);
    const other = await createTenant();
    const foreign = await adjust({ productId, locationId, quantity: 1, reason: "x" }, other.admin);
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors).toHaveLength(2);
  });

  it("exactly 50 of 100 concurrent removals of 1 from a stock of 50 succeed; the ledger sums to onHand", async () => {
    const { productId, locationId } = await freshLevel();
    await adjustStock(tenant, productId, locationId, 50);
    const results = await Promise.all(
      Array.from({ length: 100 }, () => adjust({ productId, locationId, quantity: -1, reason: "pick" })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    expect(statuses.filter((s) => s === 409)).toHaveLength(50);
    const [level] = await stockOf(tenant, productId);
    expect(level).toMatchObject({ onHand: 0, ledger: 0 });
  });

  it("write inventory.adjusted with the change, and inventory.low_stock when available reaches the reorder point", async () => {
    const { productId, locationId } = await freshLevel(5);
    await adjustStock(tenant, productId, locationId, 8);
    await adjustStock(tenant, productId, locationId, -2); // 6: above the reorder point
    await adjustStock(tenant, productId, locationId, -1); // 5: crosses it
    await adjustStock(tenant, productId, locationId, -1); // 4: already below, no new event
    const events = (await outboxEvents(tenant, /^inventory\./)).filter(
      (event) => event.payload.productId === productId,
    );
    expect(events.map((event) => event.type)).toEqual([
      "inventory.adjusted",
      "inventory.adjusted",
      "inventory.adjusted",
      "inventory.low_stock",
      "inventory.adjusted",
    ]);
    expect(events[0]!.payload).toMatchObject({
      productId,
      delta: 8,
      stockLevel: { locationId, onHand: 8, available: 8 },
    });
    expect(events[3]!.payload).toMatchObject({ productId, available: 5, reorderPoint: 5 });
  });

  it("a failed adjustment writes no event", async () => {
    const { productId, locationId } = await freshLevel();
    await adjust({ productId, locationId, quantity: -1, reason: "x" });
    const events = await outboxEvents(tenant, /^inventory\./);
    expect(events.filter((event) => event.payload.productId === productId)).toEqual([]);
  });

  it("need write:inventory (403) and a credential (401)", async () => {
    const { productId, locationId } = await freshLevel();
    const reader = await scopedKey(tenant, ["read:inventory", "write:orders"]);
    expect((await adjust({ productId, locationId, quantity: 1, reason: "x" }, reader)).status).toBe(403);
    expect((await call("POST", "/inventory/adjustments", { body: {} })).status).toBe(401);
  });
});
