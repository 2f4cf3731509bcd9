import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { takeStorageSnapshots } from "../src/billing/storage-snapshots";
import {
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  type TestTenant,
  unique,
} from "./support/builders";
import { storageSnapshotsOf, tenantDatabase } from "./support/database";
import { call } from "./support/http";

// For random stock histories over locations of random types, some locations deleted once emptied, the daily
// snapshots the job takes late (all days at once, long after) are each day's stock as a model replays it from the
// history: units, and per location type the locations holding any and their units; taking them again changes
// nothing.

let tenant: TestTenant;
let warehouseId: string;
beforeAll(async () => {
  tenant = await createTenant();
  warehouseId = (await createWarehouse(tenant)).id;
});

// September 2026: days 1 to 13 of it; the job runs on the 14th.
const at = (day: number, second = 0) => new Date(Date.UTC(2026, 8, day, 10, 0, second)).toISOString();
const LAST_DAY = 13;

// In the order a snapshot lists them (by type).
const types = ["bin", "dock", "shelf"] as const;
// One level's history: its on-hand figure from each day of a change.
const history = fc.uniqueArray(
  fc.record({ day: fc.integer({ min: 1, max: 9 }), onHand: fc.integer({ min: 0, max: 1000 }) }),
  { maxLength: 4, selector: (step) => step.day },
);
const place = fc.record({
  type: fc.constantFrom(...types),
  // Two products' histories at this location.
  levels: fc.tuple(history, history),
  // Deleted this many days after its last change (emptied first), or kept.
  deletedAfter: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
});

type Step = { day: number; onHand: number };
const onHandAt = (steps: Step[], day: number) => steps.findLast((s) => s.day <= day)?.onHand ?? 0;

describe("the daily storage snapshot, taken late", () => {
  it("is each day's stock as its history says, deleted locations included", async () => {
    const db = await tenantDatabase(tenant.id);
    await fc.assert(
      fc.asyncProperty(fc.array(place, { minLength: 1, maxLength: 3 }), async (places) => {
        const code = `SP-${unique()}`;
        const merchantId = (
          await call("POST", "/merchants", { headers: tenant.admin, body: { code, name: code } })
        ).body.data.id as string;
        await db
          .prepare("update merchants set created_at = ? where tenant_id = ? and id = ?")
          .bind(at(1), tenant.id, merchantId)
          .run();
        const products = [
          await createProduct(tenant, { merchantId }),
          await createProduct(tenant, { merchantId }),
        ];
        const model: { type: string; locationId: string; levels: Step[][] }[] = [];
        for (const p of places) {
          const location = await createLocation(tenant, warehouseId, { type: p.type, code: `L-${unique()}` });
          const levels = p.levels.map((steps) => [...steps].sort((a, b) => a.day - b.day));
          const lastDay = Math.max(0, ...levels.flat().map((s) => s.day));
          if (p.deletedAfter !== undefined) {
            // Emptied on its last day of change (or the 10th, if it never held any), deleted some days after.
            for (const steps of levels) {
              if (steps.length && onHandAt(steps, LAST_DAY) > 0)
                steps.push({ day: lastDay || 10, onHand: 0 });
            }
          }
          for (const [i, steps] of levels.entries()) {
            const product = products[i] as { id: string };
            let before = 0;
            for (const [n, step] of steps.entries()) {
              if (step.onHand !== before) {
                await db
                  .prepare(
                    `insert into stock_movements (id, tenant_id, product_id, location_id, warehouse_id, delta,
                       on_hand_after, reason, actor_type, created_at) values (?, ?, ?, ?, ?, ?, ?, 'adjustment', 'system', ?)`,
                  )
                  .bind(
                    crypto.randomUUID(),
                    tenant.id,
                    product.id,
                    location.id,
                    warehouseId,
                    step.onHand - before,
                    step.onHand,
                    at(step.day, n),
                  )
                  .run();
              }
              before = step.onHand;
            }
            if (steps.length) {
              await db
                .prepare(
                  `insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, on_hand, reserved,
                     updated_at) values (?, ?, ?, ?, ?, 0, ?)`,
                )
                .bind(tenant.id, product.id, location.id, warehouseId, before, at(LAST_DAY))
                .run();
            }
          }
          if (p.deletedAfter !== undefined) {
            const deleted = await call("DELETE", `/locations/${location.id}`, { headers: tenant.admin });
            expect(deleted.status).toBe(200);
            await db
              .prepare(
                "update deleted_stock_levels set deleted_at = ? where tenant_id = ? and location_id = ?",
              )
              .bind(at(Math.max(lastDay, 10) + p.deletedAfter), tenant.id, location.id)
              .run();
          }
          model.push({ type: p.type, locationId: location.id, levels });
        }

        await takeStorageSnapshots(env, new Date(at(LAST_DAY + 1)));
        const read = () => storageSnapshotsOf(tenant, merchantId);
        const taken = await read();
        const expected = Array.from({ length: LAST_DAY }, (_, i) => {
          const day = i + 1;
          const byType = types.flatMap((type) => {
            const held = model
              .filter((m) => m.type === type)
              .map((m) => m.levels.reduce((sum, steps) => sum + onHandAt(steps, day), 0))
              .filter((units) => units > 0);
            return held.length
              ? [{ locationType: type, locations: held.length, units: held.reduce((a, b) => a + b, 0) }]
              : [];
          });
          return [at(day).slice(0, 10), byType.reduce((sum, t) => sum + t.units, 0), byType];
        });
        expect(taken.map((s) => [s.day, s.units, JSON.parse(s.by_location_type)])).toEqual(expected);
        await takeStorageSnapshots(env, new Date(at(LAST_DAY + 1)));
        expect(await read()).toEqual(taken);
      }),
      { numRuns: 10 },
    );
  });
});
