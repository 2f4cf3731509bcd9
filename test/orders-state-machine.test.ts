import { describe, expect, it } from "vitest";
import {
  allowedTransitions,
  canReceive,
  canTransition,
  purchaseStatuses,
  salesStatuses,
  shipsStock,
  statusAfterReceipt,
} from "../src/order-core/state-machine";

describe("sales order state machine", () => {
  it("allows every forward move along the chain, and cancelling before shipped", () => {
    expect(allowedTransitions("sales", "pending")).toEqual([
      "confirmed",
      "picking",
      "packed",
      "shipped",
      "delivered",
      "cancelled",
    ]);
    expect(allowedTransitions("sales", "packed")).toEqual(["shipped", "delivered", "cancelled"]);
    expect(allowedTransitions("sales", "partially_shipped")).toEqual(["shipped", "delivered"]);
    expect(allowedTransitions("sales", "shipped")).toEqual(["delivered"]);
    expect(allowedTransitions("sales", "delivered")).toEqual([]);
    expect(allowedTransitions("sales", "cancelled")).toEqual([]);
  });

  it("refuses every backward move, self move and exit from a final status", () => {
    for (const [i, from] of salesStatuses.entries()) {
      for (const [j, to] of salesStatuses.entries()) {
        // partially_shipped is reached only by creating a shipment, never by a status update.
        const forward = from !== "cancelled" && to !== "cancelled" && to !== "partially_shipped" && j > i;
        const cancel = to === "cancelled" && ["pending", "confirmed", "picking", "packed"].includes(from);
        expect(canTransition("sales", from, to), `${from} -> ${to}`).toBe(forward || cancel);
      }
    }
  });

  it("knows which moves ship stock", () => {
    expect(shipsStock("pending", "shipped")).toBe(true);
    expect(shipsStock("packed", "delivered")).toBe(true);
    expect(shipsStock("shipped", "delivered")).toBe(false);
    // The rest of a partially shipped order ships with the legacy status update.
    expect(shipsStock("partially_shipped", "shipped")).toBe(true);
    expect(shipsStock("pending", "packed")).toBe(false);
    expect(shipsStock("pending", "cancelled")).toBe(false);
  });

  it("refuses purchase statuses on a sales order", () => {
    expect(canTransition("sales", "pending", "ordered")).toBe(false);
    expect(allowedTransitions("sales", "draft")).toEqual([]);
  });
});

describe("purchase order state machine", () => {
  it("moves draft -> ordered by update and cancels only before any receipt", () => {
    expect(allowedTransitions("purchase", "draft")).toEqual(["ordered", "cancelled"]);
    expect(allowedTransitions("purchase", "ordered")).toEqual(["cancelled"]);
    expect(allowedTransitions("purchase", "partially_received")).toEqual([]);
    expect(allowedTransitions("purchase", "received")).toEqual([]);
    expect(allowedTransitions("purchase", "cancelled")).toEqual([]);
  });

  it("never reaches the receiving statuses through a status update", () => {
    for (const from of purchaseStatuses) {
      expect(canTransition("purchase", from, "partially_received")).toBe(false);
      expect(canTransition("purchase", from, "received")).toBe(false);
    }
  });

  it("receives only once ordered and until fully received", () => {
    expect(purchaseStatuses.filter(canReceive)).toEqual(["ordered", "partially_received"]);
  });

  it("derives the status after a receipt from the lines", () => {
    expect(
      statusAfterReceipt([
        { quantity: 5, receivedQuantity: 5 },
        { quantity: 3, receivedQuantity: 1 },
      ]),
    ).toBe("partially_received");
    expect(
      statusAfterReceipt([
        { quantity: 5, receivedQuantity: 5 },
        { quantity: 3, receivedQuantity: 3 },
      ]),
    ).toBe("received");
  });
});
