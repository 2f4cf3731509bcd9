import { describe, expect, it } from "vitest";
import { allocate, byStockLevel } from "../src/stock/allocation";

const stock = (productId: string, locationId: string, available: number) => ({
  productId,
  locationId,
  warehouseId: "w",
  lotId: "",
  lotNumber: null,
  expiresAt: null,
  available,
});

const noLot = { lotId: "", lotNumber: null, expiresAt: null };

describe("allocating an order's lines to stock", () => {
  it("fills a line from the candidates in order, splitting only when it must", () => {
    const plan = allocate(
      [{ lineId: "l1", productId: "p", quantity: 5 }],
      [stock("p", "a", 3), stock("p", "b", 4)],
    );
    expect(plan).toEqual({
      reservations: [
        { lineId: "l1", productId: "p", locationId: "a", warehouseId: "w", ...noLot, quantity: 3 },
        { lineId: "l1", productId: "p", locationId: "b", warehouseId: "w", ...noLot, quantity: 2 },
      ],
    });
  });

  it("lets lines of the same product share one pool", () => {
    const plan = allocate(
      [
        { lineId: "l1", productId: "p", quantity: 3 },
        { lineId: "l2", productId: "p", quantity: 3 },
      ],
      [stock("p", "a", 5)],
    );
    expect(plan).toEqual({
      short: [{ index: 1, productId: "p", requested: 3, lotNumber: null, available: 2 }],
    });
  });

  it("reports every short line, and a short line does not use up stock for later lines", () => {
    const plan = allocate(
      [
        { lineId: "l1", productId: "p", quantity: 9 },
        { lineId: "l2", productId: "q", quantity: 1 },
        { lineId: "l3", productId: "p", quantity: 2 },
        { lineId: "l4", productId: "r", quantity: 1 },
      ],
      [stock("p", "a", 4), stock("q", "a", 1)],
    );
    expect(plan).toEqual({
      short: [
        { index: 0, productId: "p", requested: 9, lotNumber: null, available: 4 },
        { index: 3, productId: "r", requested: 1, lotNumber: null, available: 0 },
      ],
    });
  });

  it("sums reservations per stock level for one guarded update each", () => {
    const merged = byStockLevel([
      { productId: "p", locationId: "a", quantity: 2 },
      { productId: "p", locationId: "b", quantity: 1 },
      { productId: "p", locationId: "a", quantity: 3 },
    ]);
    expect(merged).toEqual([
      { productId: "p", locationId: "a", quantity: 5 },
      { productId: "p", locationId: "b", quantity: 1 },
    ]);
  });
});
