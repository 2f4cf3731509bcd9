import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { takeStorageSnapshots } from "../src/billing/storage-snapshots";
import {
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  purchaseOrder,
  type TestTenant,
  unique,
} from "./support/builders";
import { storageSnapshotsOf, tenantDatabase } from "./support/database";
import { call } from "./support/http";

// For random receipts, storage snapshots and rate cards in a past month, the invoice bills each activity at the
// rate of the card in effect on its day: every line is quantity x unit price exactly (decimal text, BigInt), the
// total is the sum of the lines, and asking again changes nothing. The daily snapshot is taken once per day, a
// missed day late from the ledger as it stood.

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const PERIOD = "2026-10";
const at = (day: number, seconds = 0) => new Date(Date.UTC(2026, 9, day, 10, 0, seconds)).toISOString();
const dayText = (day: number) => at(day).slice(0, 10);

async function newMerchant() {
  const code = `P-${unique()}`;
  return (await call("POST", "/merchants", { headers: tenant.admin, body: { code, name: code } })).body.data
    .id as string;
}

/** e4 -> "12.3456" as the API writes exact amounts. */
const text = (e4: bigint) => {
  const decimals = String(e4 % 10_000n)
    .padStart(4, "0")
    .replace(/0+$/, "");
  return `${e4 / 10_000n}${decimals ? `.${decimals}` : ""}`;
};
const e4Of = (exact: string) => {
  const [whole = "0", fraction = ""] = exact.split(".");
  return BigInt(whole) * 10_000n + BigInt(fraction.padEnd(4, "0"));
};

const price = fc.integer({ min: 0, max: 100_000_000 }); // ten-thousandths: up to 10,000.0000
const card = fc.record({
  effectiveDay: fc.integer({ min: 0, max: 31 }), // 0: from the month before
  receivingLine: fc.option(price, { nil: undefined }),
  receivingUnit: fc.option(price, { nil: undefined }),
  storageUnitDay: fc.option(price, { nil: undefined }),
  storageBinDay: fc.option(price, { nil: undefined }),
  minimum: fc.option(price, { nil: undefined }),
});
const receipt = fc.record({
  day: fc.integer({ min: 1, max: 31 }),
  lines: fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 3 }),
});
const snapshot = fc.record({
  day: fc.integer({ min: 1, max: 31 }),
  units: fc.integer({ min: 0, max: 1_000_000_000 }),
  bins: fc.integer({ min: 0, max: 500 }),
});

type Card = typeof card extends fc.Arbitrary<infer C> ? C : never;

const ratesOf = (c: Card) =>
  [
    ["receiving", "line", undefined, c.receivingLine],
    ["receiving", "unit", undefined, c.receivingUnit],
    ["storage", "unit_day", undefined, c.storageUnitDay],
    ["storage", "location_day", "bin", c.storageBinDay],
    ["minimum", "month", undefined, c.minimum],
  ].flatMap(([activity, per, locationType, e4]) =>
    e4 === undefined
      ? []
      : [
          {
            activity,
            per,
            ...(locationType ? { locationType } : {}),
            unitPrice: Number(text(BigInt(e4 as number))),
          },
        ],
  );

describe("an invoice", () => {
  it("bills each activity at its day's card: lines are quantity x price exactly, the total their sum", async () => {
    const warehouse = await createWarehouse(tenant);
    const bin = await createLocation(tenant, warehouse.id);
    const db = await tenantDatabase(tenant.id);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(card, { minLength: 1, maxLength: 3, selector: (c) => c.effectiveDay }),
        fc.array(receipt, { maxLength: 6 }),
        fc.uniqueArray(snapshot, { maxLength: 6, selector: (s) => s.day }),
        async (cards, receipts, snapshots) => {
          const merchantId = await newMerchant();
          const product = await createProduct(tenant, { merchantId });
          const po = (await purchaseOrder(tenant, warehouse.id, [{ productId: product.id, quantity: 1 }]))
            .body.data;
          for (const c of cards) {
            const effectiveFrom = c.effectiveDay === 0 ? "2026-09-15" : dayText(c.effectiveDay);
            const res = await call("POST", "/billing/rate-cards", {
              headers: tenant.admin,
              body: {
                merchantId,
                currency: "EUR",
                effectiveFrom,
                rates: ratesOf(c).length ? ratesOf(c) : [{ activity: "minimum", per: "month", unitPrice: 0 }],
              },
            });
            expect(res.status).toBe(201);
          }
          // The records, as the receiving and the snapshot job write them, on days of the month.
          for (const [i, r] of receipts.entries()) {
            const requestId = crypto.randomUUID();
            for (const [j, units] of r.lines.entries()) {
              await db
                .prepare(
                  `insert into stock_movements (id, tenant_id, product_id, location_id, warehouse_id, delta,
                     on_hand_after, reason, reference_type, reference_id, actor_type, request_id, created_at)
                   values (?, ?, ?, ?, ?, ?, ?, 'received', 'order', ?, 'system', ?, ?)`,
                )
                .bind(
                  crypto.randomUUID(),
                  tenant.id,
                  product.id,
                  bin.id,
                  warehouse.id,
                  units,
                  units,
                  po.id,
                  requestId,
                  at(r.day, i * 10 + j),
                )
                .run();
            }
          }
          for (const s of snapshots) {
            const byType = s.units > 0 ? [{ locationType: "bin", locations: s.bins, units: s.units }] : [];
            await db
              .prepare(
                `insert into billing_storage_snapshots (id, tenant_id, merchant_id, day, units, by_location_type, taken_at)
                 values (?, ?, ?, ?, ?, ?, ?)`,
              )
              .bind(
                crypto.randomUUID(),
                tenant.id,
                merchantId,
                dayText(s.day),
                s.units,
                JSON.stringify(byType),
                at(s.day),
              )
              .run();
          }

          // The model: each activity priced by the card of its day, grouped by rate and price.
          const sorted = [...cards].sort((a, b) => a.effectiveDay - b.effectiveDay);
          const cardOn = (day: number) => sorted.findLast((c) => c.effectiveDay <= day);
          const expected = new Map<string, bigint>();
          const bill = (activity: string, per: string, e4: number | undefined, quantity: number) => {
            if (e4 === undefined || quantity === 0) return;
            const key = `${activity} ${per} ${text(BigInt(e4))}`;
            expected.set(key, (expected.get(key) ?? 0n) + BigInt(quantity));
          };
          for (const r of receipts) {
            const c = cardOn(r.day);
            bill("receiving", "line", c?.receivingLine, r.lines.length);
            bill(
              "receiving",
              "unit",
              c?.receivingUnit,
              r.lines.reduce((sum, units) => sum + units, 0),
            );
          }
          for (const s of snapshots) {
            const c = cardOn(s.day);
            if (s.units === 0) continue;
            bill("storage", "unit_day", c?.storageUnitDay, s.units);
            bill("storage", "location_day", c?.storageBinDay, s.bins);
          }

          const made = await call("POST", "/billing/invoices", {
            headers: tenant.admin,
            body: { merchantId, period: PERIOD },
          });
          expect(made.status).toBe(201);
          const invoice = made.body.data;
          type Line = {
            activity: string;
            per: string;
            quantity: number;
            unitPriceExact: string;
            totalExact: string;
          };
          const lines = invoice.lines as Line[];
          for (const line of lines) {
            expect(e4Of(line.totalExact)).toBe(BigInt(line.quantity) * e4Of(line.unitPriceExact));
          }
          const sum = lines.reduce((total, line) => total + e4Of(line.totalExact), 0n);
          expect(invoice.totalExact).toBe(text(sum));
          const billed = lines.filter((l) => l.activity !== "minimum");
          const got = new Map<string, bigint>();
          for (const l of billed) {
            const key = `${l.activity} ${l.per} ${l.unitPriceExact}`;
            got.set(key, (got.get(key) ?? 0n) + BigInt(l.quantity));
          }
          expect(got).toEqual(expected);
          // The minimum of the card in effect at the month's end tops the rest up to it.
          const subtotal = billed.reduce((total, line) => total + e4Of(line.totalExact), 0n);
          const minimum = BigInt(cardOn(31)?.minimum ?? 0);
          expect(sum).toBe(subtotal < minimum ? minimum : subtotal);

          // The charges add up to the same amounts; asking again changes nothing.
          const charges = await call(
            "GET",
            `/billing/charges?merchantId=${merchantId}&from=${PERIOD}-01&to=${PERIOD}-31&pageSize=100`,
            { headers: tenant.admin },
          );
          const charged = (charges.body.data.items as { amountExact: string }[]).reduce(
            (total, c) => total + e4Of(c.amountExact),
            0n,
          );
          expect(charged).toBe(subtotal);
          const again = await call("POST", "/billing/invoices", {
            headers: tenant.admin,
            body: { merchantId, period: PERIOD },
          });
          expect(again.status).toBe(200);
          expect(again.body.data).toEqual(invoice);
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe("the daily storage snapshot", () => {
  it("takes each day once, a missed day late from the ledger as it stood that day", async () => {
    const warehouse = await createWarehouse(tenant);
    const bin = await createLocation(tenant, warehouse.id);
    const shelf = await createLocation(tenant, warehouse.id, { type: "shelf", code: `S-${unique()}` });
    const merchantId = await newMerchant();
    const product = await createProduct(tenant, { merchantId });
    const db = await tenantDatabase(tenant.id);
    // The merchant since 1 October; its ledger: 5 into the bin on the 2nd, 3 more on the 4th, 2 onto the shelf on
    // the 4th, 4 out of the bin on the 6th.
    await db
      .prepare("update merchants set created_at = ? where tenant_id = ? and id = ?")
      .bind(at(1), tenant.id, merchantId)
      .run();
    const ledger: [string, number, number, string][] = [
      [bin.id, 5, 5, at(2)],
      [bin.id, 3, 8, at(4)],
      [shelf.id, 2, 2, at(4, 1)],
      [bin.id, -4, 4, at(6)],
    ];
    for (const [locationId, delta, after, createdAt] of ledger) {
      await db
        .prepare(
          `insert into stock_movements (id, tenant_id, product_id, location_id, warehouse_id, delta, on_hand_after,
             reason, actor_type, created_at) values (?, ?, ?, ?, ?, ?, ?, 'adjustment', 'system', ?)`,
        )
        .bind(crypto.randomUUID(), tenant.id, product.id, locationId, warehouse.id, delta, after, createdAt)
        .run();
    }
    for (const [locationId, onHand] of [
      [bin.id, 4],
      [shelf.id, 2],
    ] as const) {
      await db
        .prepare(
          `insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, on_hand, reserved, updated_at)
           values (?, ?, ?, ?, ?, 0, ?)`,
        )
        .bind(tenant.id, product.id, locationId, warehouse.id, onHand, at(6))
        .run();
    }
    const taken = () => storageSnapshotsOf(tenant, merchantId);

    // The job ran for the first time on the 6th (it missed the 1st to the 4th), twice at once.
    await Promise.all([
      takeStorageSnapshots(env, new Date(at(6))),
      takeStorageSnapshots(env, new Date(at(6))),
    ]);
    const first = await taken();
    expect(first.map((s) => [s.day, s.units, JSON.parse(s.by_location_type)])).toEqual([
      [dayText(1), 0, []],
      [dayText(2), 5, [{ locationType: "bin", locations: 1, units: 5 }]],
      [dayText(3), 5, [{ locationType: "bin", locations: 1, units: 5 }]],
      [
        dayText(4),
        10,
        [
          { locationType: "bin", locations: 1, units: 8 },
          { locationType: "shelf", locations: 1, units: 2 },
        ],
      ],
      [
        dayText(5),
        10,
        [
          { locationType: "bin", locations: 1, units: 8 },
          { locationType: "shelf", locations: 1, units: 2 },
        ],
      ],
    ]);
    // Again the same day: nothing new. Two days later: the two days since, from the ledger.
    await takeStorageSnapshots(env, new Date(at(6, 30)));
    expect(await taken()).toEqual(first);
    await takeStorageSnapshots(env, new Date(at(8)));
    const later = await taken();
    expect(later.slice(0, 5)).toEqual(first);
    expect(later.slice(5).map((s) => [s.day, s.units])).toEqual([
      [dayText(6), 6],
      [dayText(7), 6],
    ]);
  });
});

describe("picking", () => {
  // However an order was picked (a pick list, part of one and the rest by hand, by hand into a shipment, by a
  // status update, a shipment cancelled and made again), it is charged once: every unit, every line, the order.
  const way = fc.constantFrom("status", "shipment", "pickList", "partPicked", "twoShipments", "repacked");
  const order = fc.record({
    way,
    lines: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
  });

  it("charges every unit, line and order picked, once, whoever picked it and however it shipped", async () => {
    const warehouse = await createWarehouse(tenant);
    const bin = await createLocation(tenant, warehouse.id);
    const day = () => new Date().toISOString().slice(0, 10);
    const from = day();
    const expectOk = async (res: Promise<{ status: number; body: unknown }>, status = 200) => {
      const answer = await res;
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      return (answer.body as { data: Record<string, unknown> }).data;
    };
    await fc.assert(
      fc.asyncProperty(fc.array(order, { minLength: 1, maxLength: 3 }), async (orders) => {
        const merchantId = await newMerchant();
        await expectOk(
          call("POST", "/billing/rate-cards", {
            headers: tenant.admin,
            body: {
              merchantId,
              currency: "EUR",
              effectiveFrom: "2026-01-01",
              rates: [
                { activity: "picking", per: "order", unitPrice: 1 },
                { activity: "picking", per: "line", unitPrice: 1 },
                { activity: "picking", per: "unit", unitPrice: 1 },
              ],
            },
          }),
          201,
        );
        const products: { id: string; sku: string }[] = [];
        for (let i = 0; i < 3; i++) {
          const product = await createProduct(tenant, { merchantId });
          await expectOk(
            call("POST", "/inventory/adjustments", {
              headers: tenant.admin,
              body: { productId: product.id, locationId: bin.id, quantity: 100, reason: "received" },
            }),
            201,
          );
          products.push(product);
        }
        const expected = new Map<string, string>();
        for (const o of orders) {
          const made = (await expectOk(
            call("POST", "/orders/sales", {
              headers: tenant.admin,
              body: {
                customerId: crypto.randomUUID(),
                warehouseId: warehouse.id,
                shippingAddress: { street: "1 Main St", city: "Springfield", zip: "12345" },
                lines: o.lines.map((quantity, i) => ({ productId: products[i]?.id, quantity, price: 1 })),
              },
            }),
            201,
          )) as { id: string; lines: { id: string; quantity: number }[] };
          const units = o.lines.reduce((sum, q) => sum + q, 0);
          expected.set(made.id, `line ${o.lines.length}, order 1, unit ${units}`);
          const status = (to: string) =>
            expectOk(
              call("PATCH", `/orders/${made.id}/status`, { headers: tenant.admin, body: { status: to } }),
            );
          const ship = (quantities: number[]) =>
            expectOk(
              call("POST", `/orders/${made.id}/shipments`, {
                headers: tenant.admin,
                body: {
                  packages: [
                    {
                      weight: { value: 1, unit: "kg" },
                      lines: made.lines.flatMap((l, i) =>
                        quantities[i] ? [{ orderLineId: l.id, quantity: quantities[i] }] : [],
                      ),
                    },
                  ],
                },
              }),
              201,
            ) as Promise<{ id: string }>;
          await status("confirmed");
          if (o.way === "status") {
            await status("shipped");
            continue;
          }
          if (o.way === "pickList" || o.way === "partPicked") {
            const list = (await expectOk(
              call("POST", "/pick-lists", {
                headers: tenant.admin,
                body: { warehouseId: warehouse.id, orderIds: [made.id] },
              }),
              201,
            )) as { id: string; lines: { id: string; orderLineId: string; quantity: number }[] };
            const picked = o.way === "pickList" ? list.lines : list.lines.slice(0, 1);
            for (const line of picked) {
              const i = made.lines.findIndex((l) => l.id === line.orderLineId);
              await expectOk(
                call("POST", `/pick-lists/${list.id}/picks`, {
                  headers: tenant.admin,
                  body: {
                    lineId: line.id,
                    location: bin.code,
                    product: products[i]?.sku,
                    quantity: o.way === "pickList" ? line.quantity : 1,
                  },
                }),
              );
            }
            // One unit of a one-unit order completes its list: there is nothing left to cancel.
            if (o.way === "partPicked" && units > 1) {
              await expectOk(call("POST", `/pick-lists/${list.id}/cancel`, { headers: tenant.admin }));
            }
          }
          if (o.way === "twoShipments") {
            await ship(o.lines.map((q, i) => (i === 0 ? q : 0)));
            if (o.lines.length > 1) await ship(o.lines.map((q, i) => (i === 0 ? 0 : q)));
            continue;
          }
          if (o.way === "repacked") {
            const first = await ship(o.lines);
            await expectOk(call("POST", `/shipments/${first.id}/cancel`, { headers: tenant.admin }));
          }
          await ship(o.lines);
        }
        const charges = await expectOk(
          call("GET", `/billing/charges?merchantId=${merchantId}&from=${from}&to=${day()}&pageSize=100`, {
            headers: tenant.admin,
          }),
        );
        // Summed per order and unit: a line is one charge on the day of its first pick.
        const got = new Map<string, Record<string, number>>();
        for (const c of charges.items as { per: string; quantity: number; reference: { id: string } }[]) {
          const sums = got.get(c.reference.id) ?? {};
          sums[c.per] = (sums[c.per] ?? 0) + c.quantity;
          got.set(c.reference.id, sums);
        }
        expect(
          new Map([...got].map(([id, s]) => [id, `line ${s.line}, order ${s.order}, unit ${s.unit}`])),
        ).toEqual(expected);
      }),
      // A one-unit order part-picked was fast-check's counterexample (seed 1997255552): kept as the first run.
      { numRuns: 8, examples: [[[{ way: "partPicked", lines: [1] }]]] },
    );
  });
});
