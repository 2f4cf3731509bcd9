import { eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import { grants, grantsAll, type Scope, scopesByRole } from "../auth/scopes";
import { changesOf, runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import { answerFor } from "../db/constraint-errors";
import { inventoryCounts } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError, conflict } from "../http/errors";
import { eventRow } from "../outbox/outbox";
import {
  adjust,
  type Drop,
  expiredHoldsOf,
  type LevelChange,
  lowStockEvents,
  overCeiling,
  releaseExpiredHolds,
  type SerialUnit,
  serialsWhereMany,
  shortage,
  toHold,
} from "../stock";

import { countApprovedPayload } from "./approved-event";
import { inStatus } from "./count-statements";
import { readCount } from "./read-count";
import { type CountLineRecord, changesStock } from "./records";

/**
 * Who may approve a count's variances: the `admin` scope, or everything a manager's role holds (a manager
 * signed in, or a key with a manager's scopes); an operator counts but does not approve.
 */
export function assertMayApprove(held: readonly Scope[]): void {
  if (grants(held, "admin") || grantsAll(held, scopesByRole.manager)) return;
  throw new AppError("FORBIDDEN", "Approving a count needs the admin scope or a manager's role");
}

const levelOf = (line: CountLineRecord) => ({
  productId: line.productId,
  locationId: line.locationId,
  lotId: line.lotId ?? undefined,
  warehouseId: line.warehouseId,
});

/**
 * The adjustments a line's approval writes: its variance, or for a serial-tracked line the missing serials
 * taken out (first) and the found ones put in, each with exactly its serials on the ledger row.
 */
function lineChanges(line: CountLineRecord): LevelChange[] {
  const level = levelOf(line);
  if (line.missingSerials === null || line.foundSerials === null) {
    return line.variance ? [{ ...level, id: uuidv7(), delta: line.variance }] : [];
  }
  return [
    { ...level, id: uuidv7(), delta: -line.missingSerials.length, serialNumbers: line.missingSerials },
    { ...level, id: uuidv7(), delta: line.foundSerials.length, serialNumbers: line.foundSerials },
  ].filter((change) => change.delta !== 0);
}

const unitsOf = (lines: readonly CountLineRecord[], serials: (line: CountLineRecord) => string[] | null) =>
  lines.flatMap((line) =>
    (serials(line) ?? []).map((serial) => ({
      productId: line.productId,
      serial,
      locationId: line.locationId,
      warehouseId: line.warehouseId,
    })),
  );

const unitKey = (u: Pick<SerialUnit, "productId" | "serial">) => `${u.productId}|${u.serial}`;

/**
 * 409 for found serials the approval could not put in stock: one found at two locations, or one still in
 * stock at a location this approval does not take it from (count it there, or move it first).
 */
async function assertFoundSerials(tdb: TenantDb, taken: readonly SerialUnit[], found: readonly SerialUnit[]) {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const unit of found) {
    if (seen.has(unitKey(unit))) problems.push(`lines: serial ${unit.serial} was found at two locations`);
    seen.add(unitKey(unit));
  }
  const takenFrom = new Map(taken.map((u) => [unitKey(u), u.locationId]));
  const where = await serialsWhereMany(tdb, found);
  for (const unit of found) {
    const at = where.get(unitKey(unit));
    if (at && at !== unit.locationId && takenFrom.get(unitKey(unit)) !== at) {
      problems.push(
        `lines: serial ${unit.serial} is in stock at location ${at}, which this count does not take it from`,
      );
    }
  }
  if (problems.length) throw conflict(problems[0] as string, problems);
}

/**
 * `POST /inventory/counts/{id}/approve`: every variance becomes an adjustment (reason `cycle_count`, the count
 * as reference) in ONE batch guarded by the count still being submitted; the last statement marks it approved,
 * so of two approvals the second changes nothing and answers the approved count (idempotent). A variance
 * applies to on hand now (movements after the count are real), and a removal the stock cannot give (it is
 * reserved meanwhile, or a missing serial has left) fails the whole approval with 409. Holds that expired
 * (not yet swept) never block it: the batch releases them first, as every removal of stock does.
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
    reason: "cycle_count" as const,
    referenceType: "inventory_count",
    referenceId: id,
    notes: null,
    now,
  };
  const varying = current.lines.filter(changesStock);
  const changes = varying.flatMap(lineChanges);
  const taken = unitsOf(varying, (line) => line.missingSerials);
  const found = unitsOf(varying, (line) => line.foundSerials);
  if (found.length) await assertFoundSerials(tdb, taken, found);
  const drops = new Map<string, Drop[]>();
  for (const { productId, lotId, delta } of changes) {
    if (delta < 0) drops.set(productId, [...(drops.get(productId) ?? []), { lotId, units: -delta }]);
  }
  // Expired holds of the products losing stock must not block it: released first, like any removal's.
  const expiredHolds = drops.size ? (await expiredHoldsOf(tdb, [...drops.keys()], now)).map(toHold) : [];
  const approved = {
    ...current,
    status: "approved" as const,
    approvedAt: now,
    approvedBy: actor.actorId,
    updatedAt: now,
  };
  const written = await runBatch(tdb, {
    expiredHolds: releaseExpiredHolds(tdb, expiredHolds, now),
    // A few statements whatever the count's size: one atomic batch within D1's statement limits.
    // Missing serials leave first, so a serial found at another counted location can arrive there.
    ...adjust(tdb, changes, { taken, received: found }, ctx, guard),
    lowStock: lowStockEvents(
      tdb,
      [...drops].map(([productId, taken]) => ({ productId, drops: taken })),
      now,
      guard,
    ),
    event: eventRow(tdb, "inventory.count_approved", countApprovedPayload(approved), now, { onlyIf: guard }),
    // Last: once approved, every statement above is a no-op for a concurrent approval.
    approve: tdb.db
      .update(inventoryCounts)
      .set({ status: "approved", approvedAt: now, approvedBy: actor.actorId, updatedAt: now })
      .where(
        inTenant(tdb, inventoryCounts, eq(inventoryCounts.id, id), eq(inventoryCounts.status, "submitted")),
      ),
  }).catch(async (error) => {
    const reserved = () =>
      conflict("Stock changed since the count: a variance would remove stock that is reserved", [
        ...varying
          .filter((line) => (line.variance ?? 0) < 0 || (line.missingSerials?.length ?? 0) > 0)
          .map(
            (line) =>
              `lines: ${line.sku} at ${line.locationCode}${line.lotNumber ? ` lot ${line.lotNumber}` : ""}: variance ${line.variance}`,
          ),
      ]);
    throw await answerFor<AppError | Promise<AppError>>(error, {
      ...shortage(reserved),
      stock_levels_on_hand_max_check: () =>
        overCeiling(
          tdb,
          changes.filter((c) => c.delta > 0).map((c) => ({ ...c, quantity: c.delta, field: "lines" })),
        ),
      serial_numbers_on_hand_check: () =>
        conflict("Serial numbers moved since the count: a missing serial is no longer where it was counted"),
    });
  });
  if (changesOf(written.approve) === 0) return readCount(tdb, id);
  return approved;
}
