import { eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { grants, grantsAll, type Scope, scopesByRole } from "../auth/scopes";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { inventoryCounts } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { eventRow } from "../events/outbox";
import { AppError, conflict } from "../http/errors";
import { isStockShortage } from "../inventory/insufficient-stock";
import { isOverCeiling, overCeiling } from "../inventory/level-ceiling";
import { lowStockEvent } from "../inventory/low-stock-event";
import { levelChanges } from "../inventory/stock-statements";
import { type CountLineRow, countRecord, readCount, varianceOf } from "./read";
import { inStatus } from "./writes";

/**
 * Who may approve a count's variances: the `admin` scope, or everything a manager's role holds (a manager
 * signed in, or a key with a manager's scopes); an operator counts but does not approve.
 */
export function assertMayApprove(held: readonly Scope[]): void {
  if (grants(held, "admin") || grantsAll(held, scopesByRole.manager)) return;
  throw new AppError("FORBIDDEN", "Approving a count needs the admin scope or a manager's role");
}

const levelOf = (line: CountLineRow) => ({
  productId: line.productId,
  locationId: line.locationId,
  lotId: line.lotId ?? undefined,
  warehouseId: line.warehouseId,
});

/**
 * `POST /inventory/counts/{id}/approve`: every variance becomes an adjustment (reason `cycle_count`, the count
 * as reference) in ONE batch guarded by the count still being submitted; the last statement marks it approved,
 * so of two approvals the second changes nothing and answers the approved count (idempotent). A variance
 * applies to on hand now (movements after the count are real), and a removal the stock cannot give (it is
 * reserved meanwhile) fails the whole approval with 409.
 */
export async function approveCount(tdb: TenantDb, actor: Actor, id: string) {
  const current = await readCount(tdb, id);
  if (current.status === "approved") return current;
  if (current.status !== "submitted") {
    throw conflict(`Inventory count ${id} is ${current.status}; only a submitted count is approved`);
  }
  const now = new Date().toISOString();
  const guard = inStatus(tdb, id, "submitted");
  const ctx = {
    ...actor,
    reason: "cycle_count",
    referenceType: "inventory_count",
    referenceId: id,
    notes: null,
    now,
  };
  const varying = current.lines.filter((line) => (varianceOf(line) ?? 0) !== 0);
  const drops = new Map<string, number>();
  for (const line of varying) {
    const variance = varianceOf(line) ?? 0;
    if (variance < 0) drops.set(line.productId, (drops.get(line.productId) ?? 0) - variance);
  }
  const approved = {
    ...current,
    status: "approved" as const,
    approvedAt: now,
    approvedBy: actor.actorId,
    updatedAt: now,
  };
  const changes = varying.map((line) => ({ ...levelOf(line), id: uuidv7(), delta: varianceOf(line) ?? 0 }));
  const written = await runBatch(tdb, {
    // A few statements whatever the count's size: one atomic batch within D1's statement limits.
    adjustments: levelChanges(tdb, changes, ctx, guard),
    lowStock: [...drops].map(([productId, drop]) => lowStockEvent(tdb, productId, drop, now, guard)),
    event: eventRow(tdb, "inventory.count_approved", approved, now, { onlyIf: guard }),
    // Last: once approved, every statement above is a no-op for a concurrent approval.
    approve: tdb.db
      .update(inventoryCounts)
      .set({ status: "approved", approvedAt: now, approvedBy: actor.actorId, updatedAt: now })
      .where(
        inTenant(tdb, inventoryCounts, eq(inventoryCounts.id, id), eq(inventoryCounts.status, "submitted")),
      ),
  }).catch(async (error) => {
    if (isOverCeiling(error)) {
      throw await overCeiling(
        tdb,
        changes.filter((c) => c.delta > 0).map((c) => ({ ...c, quantity: c.delta, field: "lines" })),
      );
    }
    if (!isStockShortage(error)) throw error;
    throw conflict("Stock changed since the count: a variance would remove stock that is reserved", [
      ...varying
        .filter((line) => (varianceOf(line) ?? 0) < 0)
        .map(
          (line) =>
            `lines: ${line.sku} at ${line.locationCode}${line.lotNumber ? ` lot ${line.lotNumber}` : ""}: variance ${varianceOf(line)}`,
        ),
    ]);
  });
  if (changesOf(written.approve) === 0) return readCount(tdb, id);
  return countRecord({ ...approved, tenantId: tdb.tenantId }, current.lines);
}
