import { eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { locations, products, stockHoldAllocations, stockHolds, warehouses } from "../db/schema/tenant";
import { inTenant, tenantIdsAmong } from "../db/tenant-scope";
import { AppError, conflict } from "../http/errors";
import { validationError } from "../http/validation";
import { eventRow } from "../outbox/outbox";
import {
  type InUnits,
  inBaseUnits,
  inShownOrder,
  lowStockEvent,
  planReservations,
  reservationReads,
  reserve,
  reserveRacing,
  resolveLots,
  toHold,
} from "../stock";

import type { HoldRecord } from "../stock/schemas";

import { type CreateHoldBody, MAX_HOLD_MS } from "./schemas";

function assertExpiry(expiresAt: string, now: Date): string {
  const at = Date.parse(expiresAt);
  if (at <= now.getTime()) throw validationError(["expiresAt: must be in the future"]);
  if (at - now.getTime() > MAX_HOLD_MS) throw validationError(["expiresAt: must be at most 7 days ahead"]);
  return new Date(at).toISOString();
}

/**
 * `POST /inventory/holds`: reserves available stock exactly like an order line (same planning, same
 * guards, one batch), releasing any expired holds in its way. 409 when short, stating what is available.
 */
export async function createHold(tdb: TenantDb, body: CreateHoldBody) {
  const [input] = (await inBaseUnits(tdb, [body])) as [InUnits<CreateHoldBody>];
  const clock = new Date();
  const now = clock.toISOString();
  const expiresAt = assertExpiry(input.expiresAt, clock);
  const holdId = uuidv7();
  const scope = { locationId: input.locationId, warehouseId: input.warehouseId };

  return reserveRacing(async () => {
    const read = await runBatch(tdb, {
      product: tdb.db
        .select({ id: products.id, sku: products.sku, status: products.status, tracking: products.tracking })
        .from(products)
        .where(inTenant(tdb, products, eq(products.id, input.productId))),
      location: tenantIdsAmong(tdb, locations, input.locationId ? [input.locationId] : []),
      warehouse: tenantIdsAmong(tdb, warehouses, input.warehouseId ? [input.warehouseId] : []),
      ...reservationReads(tdb, [input.productId], scope, now),
    });
    const [product] = read.product;
    if (!product) throw new AppError("NOT_FOUND", `productId: product ${input.productId} not found`);
    if (input.locationId && read.location.length === 0) {
      throw new AppError("NOT_FOUND", `locationId: location ${input.locationId} not found`);
    }
    if (input.warehouseId && read.warehouse.length === 0) {
      throw new AppError("NOT_FOUND", `warehouseId: warehouse ${input.warehouseId} not found`);
    }
    if (product.status === "Inactive") {
      throw conflict(`Product ${product.sku} is Inactive and cannot be held`);
    }
    const { lotNumber } = input;
    if (lotNumber !== undefined) {
      if (product.tracking !== "lot")
        throw validationError([`lotNumber: product ${product.sku} is not lot-tracked`]);
      await resolveLots(tdb, [{ productId: product.id, sku: product.sku, lotNumber }], "take");
    }
    const plan = planReservations(
      [{ lineId: holdId, productId: input.productId, quantity: input.quantity, lotNumber }],
      { candidates: read.candidates, expiredHolds: read.expiredHolds.map(toHold) },
    );
    if ("short" in plan) {
      const [short] = plan.short;
      const of = lotNumber === undefined ? "" : ` of lot ${lotNumber}`;
      const message = `Insufficient stock${of}: requested ${input.quantity}, available ${short?.available ?? 0}${product.tracking === "lot" ? " (expired lots are never held)" : ""}`;
      throw new AppError("CONFLICT", message, { errors: [`quantity: ${message}`] });
    }
    const hold: HoldRecord = {
      id: holdId,
      productId: input.productId,
      quantity: input.quantity,
      status: "active",
      reference: input.reference ?? null,
      locationId: input.locationId ?? null,
      warehouseId: input.warehouseId ?? null,
      allocations: inShownOrder(
        plan.reservations.map((r) => ({
          locationId: r.locationId,
          warehouseId: r.warehouseId,
          lotId: r.lotId || null,
          lotNumber: r.lotNumber,
          expiresAt: r.expiresAt,
          quantity: r.quantity,
        })),
      ),
      expiresAt,
      orderId: null,
      releasedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await runBatch(tdb, {
      reserve: reserve(tdb, plan.reservations, plan.expiredHolds, now),
      hold: tdb.db.insert(stockHolds).values({
        id: holdId,
        tenantId: tdb.tenantId,
        productId: hold.productId,
        quantity: hold.quantity,
        locationId: hold.locationId,
        warehouseId: hold.warehouseId,
        reference: hold.reference,
        status: "active",
        expiresAt,
        createdAt: now,
        updatedAt: now,
      }),
      allocations: tdb.db.insert(stockHoldAllocations).values(
        plan.reservations.map((r) => ({
          tenantId: tdb.tenantId,
          holdId,
          productId: hold.productId,
          locationId: r.locationId,
          warehouseId: r.warehouseId,
          lotId: r.lotId,
          quantity: r.quantity,
        })),
      ),
      created: eventRow(tdb, "inventory.hold_created", hold, now),
      lowStock: lowStockEvent(
        tdb,
        input.productId,
        plan.reservations.map((r) => ({ lotId: r.lotId, units: r.quantity })),
        now,
      ),
    });
    return hold;
  });
}
