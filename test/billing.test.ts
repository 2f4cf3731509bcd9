import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { takeStorageSnapshots } from "../src/billing/storage-snapshots";
import {
  adjustStock,
  createLocation,
  createMerchant,
  createProduct,
  createTenant,
  createWarehouse,
  purchaseOrder,
  salesOrder,
  scopedKey,
  setStatus,
  type TestTenant,
} from "./support/builders";
import { parseCsv } from "./support/csv";
import { outboxEvents, tenantDatabase } from "./support/database";
import { call } from "./support/http";

// Billing (issue #32): rate cards, charges read from what the warehouse did, invoices.

const today = () => new Date().toISOString().slice(0, 10);
const period = () => today().slice(0, 7);
const monthStart = () => `${period()}-01`;

const RATES = [
  { activity: "storage", per: "unit_day", unitPrice: 0.01 },
  { activity: "storage", per: "location_day", locationType: "bin", unitPrice: 0.5 },
  { activity: "receiving", per: "line", unitPrice: 1.25 },
  { activity: "receiving", per: "unit", unitPrice: 0.1 },
  { activity: "picking", per: "order", unitPrice: 2 },
  { activity: "picking", per: "line", unitPrice: 0.5 },
  { activity: "picking", per: "unit", unitPrice: 0.05 },
  { activity: "packing", per: "package", unitPrice: 1.5 },
  { activity: "packing", per: "package", packageType: "box", unitPrice: 2 },
  { activity: "returns", per: "return", unitPrice: 3 },
  { activity: "returns", per: "unit", unitPrice: 0.2 },
  { activity: "minimum", per: "month", unitPrice: 1000 },
];

let tenant: TestTenant;
let other: TestTenant;
let merchantId: string;
let otherMerchantId: string;
let world: { orderId: string; purchaseId: string; shipmentId: string; returnId: string };

const ok = <T extends { status: number; body: unknown }>(what: string, res: T, status = 200) => {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
};

/**
 * For `merchantId`: a purchase order received in one receipt of two lines (6 + 4 units), a sales order of 3 picked
 * in two scans, shipped in one box and dispatched, and 1 unit of it returned and restocked.
 */
async function activityOf(who: TestTenant, forMerchant: string) {
  const warehouse = await createWarehouse(who);
  const bin = await createLocation(who, warehouse.id);
  const product = await createProduct(who, { merchantId: forMerchant });
  const po = ok("po", await purchaseOrder(who, warehouse.id, [{ productId: product.id, quantity: 10 }]), 201);
  const poLine = po.body.data.lines[0]?.id as string;
  ok("ordered", await setStatus(who, po.body.data.id, { status: "ordered" }));
  ok(
    "receive",
    await call("POST", `/orders/${po.body.data.id}/receive`, {
      headers: who.admin,
      body: {
        lines: [
          { lineId: poLine, quantity: 6, locationId: bin.id },
          { lineId: poLine, quantity: 4, locationId: bin.id },
        ],
      },
    }),
  );
  const order = ok(
    "order",
    await salesOrder(who, [{ productId: product.id, quantity: 3 }], { warehouseId: warehouse.id }),
    201,
  ).body.data;
  ok("confirm", await setStatus(who, order.id, { status: "confirmed" }));
  const list = ok(
    "pick list",
    await call("POST", "/pick-lists", {
      headers: who.admin,
      body: { warehouseId: warehouse.id, orderIds: [order.id] },
    }),
    201,
  ).body.data;
  const line = list.lines[0] as { id: string };
  for (const quantity of [2, 1]) {
    ok(
      "pick",
      await call("POST", `/pick-lists/${list.id}/picks`, {
        headers: who.admin,
        body: { lineId: line.id, location: bin.code, product: product.sku, quantity },
      }),
    );
  }
  const orderLineId = order.lines[0]?.id as string;
  const shipment = ok(
    "ship",
    await call("POST", `/orders/${order.id}/shipments`, {
      headers: who.admin,
      body: {
        carrier: "dhl",
        packages: [
          { packageType: "box", weight: { value: 1, unit: "kg" }, lines: [{ orderLineId, quantity: 3 }] },
        ],
      },
    }),
    201,
  ).body.data;
  ok("dispatch", await call("POST", `/shipments/${shipment.id}/dispatch`, { headers: who.admin }));
  const rma = ok(
    "return",
    await call("POST", "/returns", {
      headers: who.admin,
      body: { orderId: order.id, lines: [{ orderLineId, quantity: 1, reason: "damaged" }] },
    }),
    201,
  ).body.data;
  ok(
    "authorize",
    await call("PATCH", `/returns/${rma.id}/status`, { headers: who.admin, body: { status: "authorized" } }),
  );
  ok(
    "receipt",
    await call("POST", `/returns/${rma.id}/receipts`, {
      headers: who.admin,
      body: {
        lines: [{ returnLineId: rma.lines[0]?.id, quantity: 1, disposition: "restock", locationId: bin.id }],
      },
    }),
  );
  return { orderId: order.id, purchaseId: po.body.data.id, shipmentId: shipment.id, returnId: rma.id };
}

const rateCard = (who: TestTenant, forMerchant: string, body: Record<string, unknown> = {}) =>
  call("POST", "/billing/rate-cards", {
    headers: who.admin,
    body: { merchantId: forMerchant, currency: "EUR", effectiveFrom: monthStart(), rates: RATES, ...body },
  });

beforeAll(async () => {
  [tenant, other] = [await createTenant(), await createTenant()];
  [merchantId, otherMerchantId] = [await createMerchant(tenant), await createMerchant(tenant)];
  ok("card", await rateCard(tenant, merchantId), 201);
  world = await activityOf(tenant, merchantId);
  // Today's snapshot, as the job takes it once the day has ended.
  await takeStorageSnapshots(env, new Date(Date.now() + 86_400_000));
});

describe("POST /billing/rate-cards", () => {
  it("keeps exact unit prices by activity, one card per merchant and day", async () => {
    const res = await rateCard(tenant, otherMerchantId, { effectiveFrom: "2026-01-01" });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`/api/v1/billing/rate-cards/${res.body.data.id}`);
    expect(res.body.data).toMatchObject({
      merchantId: otherMerchantId,
      currency: "EUR",
      effectiveFrom: "2026-01-01",
    });
    expect(res.body.data.rates[1]).toEqual({
      activity: "storage",
      per: "location_day",
      locationType: "bin",
      packageType: null,
      unitPrice: 0.5,
    });
    const again = await rateCard(tenant, otherMerchantId, { effectiveFrom: "2026-01-01" });
    expect(again.status).toBe(409);
    const got = await call("GET", `/billing/rate-cards/${res.body.data.id}`, { headers: tenant.admin });
    expect(got.body.data).toEqual(res.body.data);
    const listed = await call("GET", `/billing/rate-cards?merchantId=${otherMerchantId}`, {
      headers: tenant.admin,
    });
    expect(listed.body.data.items.map((c: { id: string }) => c.id)).toEqual([res.body.data.id]);
  });

  it("refuses rates an activity is not priced by, types on other activities, and the same rate twice (400)", async () => {
    const res = await rateCard(tenant, otherMerchantId, {
      effectiveFrom: "2026-02-01",
      rates: [
        { activity: "picking", per: "package", unitPrice: 1 },
        { activity: "receiving", per: "unit", locationType: "bin", unitPrice: 1 },
        { activity: "packing", per: "package", packageType: "box", unitPrice: 1 },
        { activity: "minimum", per: "month", unitPrice: 5 },
        { activity: "minimum", per: "month", unitPrice: 6 },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      "rates[0].per: picking is priced per order or line or unit",
      "rates[1].locationType: only for storage rates",
      "rates[4]: the same rate twice",
    ]);
    const cards = await call("GET", `/billing/rate-cards?merchantId=${otherMerchantId}`, {
      headers: tenant.admin,
    });
    expect(cards.body.data.items.map((c: { effectiveFrom: string }) => c.effectiveFrom)).not.toContain(
      "2026-02-01",
    );
  });

  it("answers 404 for a merchant the tenant does not have", async () => {
    const foreign = await createMerchant(other);
    const res = await rateCard(tenant, foreign);
    expect(res.status).toBe(404);
    expect(res.body.errors).toEqual([`merchantId: merchant ${foreign} not found`]);
  });
});

describe("GET /billing/charges", () => {
  it("lists what happened, priced by the card, each with what it was for", async () => {
    const res = await call(
      "GET",
      `/billing/charges?merchantId=${merchantId}&from=${monthStart()}&to=${today()}&pageSize=100`,
      {
        headers: tenant.admin,
      },
    );
    expect(res.status).toBe(200);
    const charges = res.body.data.items.map(
      (c: {
        activity: string;
        per: string;
        quantity: number;
        unitPrice: number;
        amountExact: string;
        reference: { type: string; id: string };
      }) =>
        [c.activity, c.per, c.quantity, c.unitPrice, c.amountExact, c.reference.type, c.reference.id].join(
          " ",
        ),
    );
    const snapshot = res.body.data.items.find(
      (c: { reference: { type: string } }) => c.reference.type === "snapshot",
    );
    expect(charges.sort()).toEqual(
      [
        `receiving line 2 1.25 2.5 receipt ${world.purchaseId}`,
        `receiving unit 10 0.1 1 receipt ${world.purchaseId}`,
        `picking order 1 2 2 order ${world.orderId}`,
        `picking line 1 0.5 0.5 order ${world.orderId}`,
        `picking unit 3 0.05 0.15 order ${world.orderId}`,
        `packing package 1 2 2 shipment ${world.shipmentId}`,
        `returns return 1 3 3 return ${world.returnId}`,
        `returns unit 1 0.2 0.2 return ${world.returnId}`,
        // 6 + 4 received, 3 shipped, 1 restocked: 8 units in one bin.
        `storage unit_day 8 0.01 0.08 snapshot ${snapshot?.reference.id}`,
        `storage location_day 1 0.5 0.5 snapshot ${snapshot?.reference.id}`,
      ].sort(),
    );
    expect(snapshot).toMatchObject({ date: today(), currency: "EUR" });
    const again = await call(
      "GET",
      `/billing/charges?merchantId=${merchantId}&from=${monthStart()}&to=${today()}&pageSize=100`,
      {
        headers: tenant.admin,
      },
    );
    expect(again.body.data).toEqual(res.body.data);
  });

  it("bills an order shipped by a status update as picked when it shipped, and a picked one from its picks only", async () => {
    const shipper = await createMerchant(tenant);
    ok("card", await rateCard(tenant, shipper), 201);
    const warehouse = await createWarehouse(tenant);
    const bin = await createLocation(tenant, warehouse.id);
    const [mug, cup] = [
      await createProduct(tenant, { merchantId: shipper }),
      await createProduct(tenant, { merchantId: shipper }),
    ];
    for (const product of [mug, cup]) await adjustStock(tenant, product.id, bin.id, 10);
    const order = (lines: { productId: string; quantity: number }[]) =>
      salesOrder(tenant, lines, { warehouseId: warehouse.id }).then((res) => ok("order", res, 201).body.data);
    // Shipped by status updates alone: no pick list, no scan.
    const unpicked = await order([
      { productId: mug.id, quantity: 2 },
      { productId: cup.id, quantity: 1 },
    ]);
    for (const status of ["confirmed", "picking", "shipped"])
      ok(status, await setStatus(tenant, unpicked.id, { status }));
    // Picked on a pick list, then shipped by a status update: its picking is its scans.
    const picked = await order([{ productId: mug.id, quantity: 4 }]);
    ok("confirm", await setStatus(tenant, picked.id, { status: "confirmed" }));
    const list = ok(
      "pick list",
      await call("POST", "/pick-lists", {
        headers: tenant.admin,
        body: { warehouseId: warehouse.id, orderIds: [picked.id] },
      }),
      201,
    ).body.data;
    ok(
      "pick",
      await call("POST", `/pick-lists/${list.id}/picks`, {
        headers: tenant.admin,
        body: { lineId: list.lines[0]?.id, location: bin.code, product: mug.sku, quantity: 4 },
      }),
    );
    ok("ship", await setStatus(tenant, picked.id, { status: "shipped" }));
    const res = await call(
      "GET",
      `/billing/charges?merchantId=${shipper}&from=${monthStart()}&to=${today()}&pageSize=100`,
      { headers: tenant.admin },
    );
    expect(res.status).toBe(200);
    const picking = res.body.data.items
      .filter((c: { activity: string }) => c.activity === "picking")
      .map((c: { per: string; quantity: number; amountExact: string; reference: { id: string } }) =>
        [c.per, c.quantity, c.amountExact, c.reference.id].join(" "),
      );
    expect(picking.sort()).toEqual(
      [
        `order 1 2 ${unpicked.id}`,
        `line 2 1 ${unpicked.id}`,
        `unit 3 0.15 ${unpicked.id}`,
        `order 1 2 ${picked.id}`,
        `line 1 0.5 ${picked.id}`,
        `unit 4 0.2 ${picked.id}`,
      ].sort(),
    );
  });

  it("bills picking however an order was picked: packed without a pick list, partly picked, re-packed after a cancel", async () => {
    const shipper = await createMerchant(tenant);
    ok("card", await rateCard(tenant, shipper), 201);
    const warehouse = await createWarehouse(tenant);
    const bin = await createLocation(tenant, warehouse.id);
    const [mug, cup] = [
      await createProduct(tenant, { merchantId: shipper }),
      await createProduct(tenant, { merchantId: shipper }),
    ];
    for (const product of [mug, cup]) await adjustStock(tenant, product.id, bin.id, 20);
    const confirmed = async (lines: { productId: string; quantity: number }[]) => {
      const order = ok("order", await salesOrder(tenant, lines, { warehouseId: warehouse.id }), 201).body
        .data;
      ok("confirm", await setStatus(tenant, order.id, { status: "confirmed" }));
      return order as { id: string; lines: { id: string; quantity: number }[] };
    };
    const ship = async (order: { id: string; lines: { id: string; quantity: number }[] }, units: number[]) =>
      ok(
        "shipment",
        await call("POST", `/orders/${order.id}/shipments`, {
          headers: tenant.admin,
          body: {
            packages: [
              {
                weight: { value: 1, unit: "kg" },
                lines: order.lines.flatMap((l, i) =>
                  units[i] ? [{ orderLineId: l.id, quantity: units[i] }] : [],
                ),
              },
            ],
          },
        }),
        201,
      ).body.data as { id: string };
    // Packed straight from the bin, no pick list: two lines, 3 + 2 units.
    const packed = await confirmed([
      { productId: mug.id, quantity: 3 },
      { productId: cup.id, quantity: 2 },
    ]);
    await ship(packed, [3, 2]);
    // 2 of 5 picked on a pick list, then all 5 packed: 2 picked units from the packing location, 3 from the bin.
    const partly = await confirmed([{ productId: mug.id, quantity: 5 }]);
    const list = ok(
      "pick list",
      await call("POST", "/pick-lists", {
        headers: tenant.admin,
        body: { warehouseId: warehouse.id, orderIds: [partly.id] },
      }),
      201,
    ).body.data;
    ok(
      "pick",
      await call("POST", `/pick-lists/${list.id}/picks`, {
        headers: tenant.admin,
        body: { lineId: list.lines[0]?.id, location: bin.code, product: mug.sku, quantity: 2 },
      }),
    );
    ok("cancel list", await call("POST", `/pick-lists/${list.id}/cancel`, { headers: tenant.admin }));
    await ship(partly, [5]);
    // Packed from the bin, cancelled (its units wait at the packing location), packed again: picked once.
    const repacked = await confirmed([{ productId: cup.id, quantity: 4 }]);
    const first = await ship(repacked, [4]);
    ok("cancel", await call("POST", `/shipments/${first.id}/cancel`, { headers: tenant.admin }));
    await ship(repacked, [4]);

    const res = await call(
      "GET",
      `/billing/charges?merchantId=${shipper}&from=${monthStart()}&to=${today()}&pageSize=100`,
      { headers: tenant.admin },
    );
    expect(res.status).toBe(200);
    const picking = res.body.data.items
      .filter((c: { activity: string }) => c.activity === "picking")
      .map((c: { per: string; quantity: number; reference: { id: string } }) =>
        [c.reference.id, c.per, c.quantity].join(" "),
      );
    expect(picking.sort()).toEqual(
      [
        `${packed.id} order 1`,
        `${packed.id} line 2`,
        `${packed.id} unit 5`,
        `${partly.id} order 1`,
        `${partly.id} line 1`,
        `${partly.id} unit 5`,
        `${repacked.id} order 1`,
        `${repacked.id} line 1`,
        `${repacked.id} unit 4`,
      ].sort(),
    );
  });

  it("needs a merchant, a range of at most 92 days, and answers 404 for another tenant's merchant", async () => {
    const noMerchant = await call("GET", `/billing/charges?from=${today()}&to=${today()}`, {
      headers: tenant.admin,
    });
    expect(noMerchant.status).toBe(400);
    expect(noMerchant.body.errors).toEqual(["merchantId: required (the merchant billed)"]);
    const long = await call(
      "GET",
      `/billing/charges?merchantId=${merchantId}&from=2026-01-01&to=2026-06-01`,
      {
        headers: tenant.admin,
      },
    );
    expect(long.status).toBe(400);
    const foreign = await call(
      "GET",
      `/billing/charges?merchantId=${merchantId}&from=${today()}&to=${today()}`,
      {
        headers: other.admin,
      },
    );
    expect(foreign.status).toBe(404);
  });
});

describe("POST /billing/invoices", () => {
  it("bills the period by activity with the minimum's top-up, the same invoice until voided, as JSON or CSV", async () => {
    const made = await call("POST", "/billing/invoices", {
      headers: tenant.admin,
      body: { merchantId, period: period() },
    });
    expect(made.status).toBe(201);
    const invoice = made.body.data;
    const lines = invoice.lines.map(
      (l: { activity: string; per: string; quantity: number; unitPriceExact: string; totalExact: string }) =>
        `${l.activity} ${l.per} ${l.quantity} x ${l.unitPriceExact} = ${l.totalExact}`,
    );
    // 2.5 + 1 + 2 + 0.5 + 0.15 + 2 + 3 + 0.2 + 0.08 + 0.5 = 11.93; the minimum 1000 tops it up by 988.07.
    expect(lines).toEqual([
      "storage unit_day 8 x 0.01 = 0.08",
      "storage location_day 1 x 0.5 = 0.5",
      "receiving line 2 x 1.25 = 2.5",
      "receiving unit 10 x 0.1 = 1",
      "picking order 1 x 2 = 2",
      "picking line 1 x 0.5 = 0.5",
      "picking unit 3 x 0.05 = 0.15",
      "packing package 1 x 2 = 2",
      "returns return 1 x 3 = 3",
      "returns unit 1 x 0.2 = 0.2",
      "minimum month 1 x 988.07 = 988.07",
    ]);
    expect(invoice).toMatchObject({
      merchantId,
      period: period(),
      status: "issued",
      currency: "EUR",
      total: 1000,
    });
    expect(invoice.totalExact).toBe("1000");

    const again = await call("POST", "/billing/invoices", {
      headers: tenant.admin,
      body: { merchantId, period: period() },
    });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(invoice);

    const csv = await call("GET", `/billing/invoices/${invoice.id}`, {
      headers: { ...tenant.admin, accept: "text/csv" },
    });
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const rows = parseCsv(csv.body.data as unknown as string);
    expect(rows[0]).toEqual([
      "invoiceId",
      "merchantId",
      "period",
      "currency",
      "activity",
      "per",
      "locationType",
      "packageType",
      "quantity",
      "unitPrice",
      "total",
    ]);
    expect(rows[2]).toEqual([
      invoice.id,
      merchantId,
      period(),
      "EUR",
      "storage",
      "location_day",
      "bin",
      "",
      "1",
      "0.5",
      "0.5",
    ]);
    expect(rows.at(-1)).toEqual([
      invoice.id,
      merchantId,
      period(),
      "EUR",
      "total",
      "",
      "",
      "",
      "",
      "",
      "1000",
    ]);

    const voided = await call("POST", `/billing/invoices/${invoice.id}/void`, { headers: tenant.admin });
    expect(voided.status).toBe(200);
    expect(voided.body.data).toMatchObject({ id: invoice.id, status: "voided" });
    expect(
      (await call("POST", `/billing/invoices/${invoice.id}/void`, { headers: tenant.admin })).status,
    ).toBe(409);
    const remade = await call("POST", "/billing/invoices", {
      headers: tenant.admin,
      body: { merchantId, period: period() },
    });
    expect(remade.status).toBe(201);
    expect(remade.body.data.id).not.toBe(invoice.id);
    expect(remade.body.data.lines).toEqual(invoice.lines);

    const events = await outboxEvents(tenant, /^invoice\./);
    expect(events.map((e) => [e.type, e.payload.id])).toEqual([
      ["invoice.created", invoice.id],
      ["invoice.voided", invoice.id],
      ["invoice.created", remade.body.data.id],
    ]);
    const stamped = await (await tenantDatabase(tenant.id))
      .prepare("select distinct merchant_id from outbox_events where tenant_id = ? and type like 'invoice.%'")
      .bind(tenant.id)
      .all<{ merchant_id: string }>();
    expect(stamped.results).toEqual([{ merchant_id: merchantId }]);
    const listed = await call("GET", `/billing/invoices?merchantId=${merchantId}&status=issued`, {
      headers: tenant.admin,
    });
    expect(listed.body.data.items.map((i: { id: string }) => i.id)).toEqual([remade.body.data.id]);
  });

  it("makes one invoice of concurrent requests for one period", async () => {
    const m = await createMerchant(tenant);
    ok("card", await rateCard(tenant, m), 201);
    const made = await Promise.all(
      Array.from({ length: 6 }, () =>
        call("POST", "/billing/invoices", {
          headers: tenant.admin,
          body: { merchantId: m, period: period() },
        }),
      ),
    );
    expect(made.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(made.map((r) => r.body.data.id)).size).toBe(1);
    const listed = await call("GET", `/billing/invoices?merchantId=${m}`, { headers: tenant.admin });
    expect(listed.body.data.totalCount).toBe(1);
    const events = (await outboxEvents(tenant, /^invoice\.created$/)).filter(
      (e) => e.payload.merchantId === m,
    );
    expect(events).toHaveLength(1);
    // Nothing happened: the whole minimum is the top-up.
    expect(made[0]?.body.data.lines).toEqual([
      expect.objectContaining({ activity: "minimum", per: "month", quantity: 1, totalExact: "1000" }),
    ]);
  });

  it("refuses a month still to come (400) and a merchant without a card (409)", async () => {
    const future = await call("POST", "/billing/invoices", {
      headers: tenant.admin,
      body: { merchantId, period: "2999-01" },
    });
    expect(future.status).toBe(400);
    expect(future.body.errors).toEqual(["period: must not be a month still to come"]);
    const bare = await createMerchant(tenant);
    const none = await call("POST", "/billing/invoices", {
      headers: tenant.admin,
      body: { merchantId: bare, period: period() },
    });
    expect(none.status).toBe(409);
  });
});

describe("billing access", () => {
  const routes = (ids: { card: string; invoice: string }) =>
    [
      ["GET", "/billing/rate-cards"],
      ["GET", `/billing/rate-cards/${ids.card}`],
      ["POST", "/billing/rate-cards"],
      ["GET", `/billing/charges?merchantId=${merchantId}&from=${today()}&to=${today()}`],
      ["GET", "/billing/invoices"],
      ["GET", `/billing/invoices/${ids.invoice}`],
      ["POST", "/billing/invoices"],
      ["POST", `/billing/invoices/${ids.invoice}/void`],
    ] as const;
  let ids: { card: string; invoice: string };
  beforeAll(async () => {
    const cards = await call("GET", `/billing/rate-cards?merchantId=${merchantId}`, {
      headers: tenant.admin,
    });
    const invoice = await call("POST", "/billing/invoices", {
      headers: tenant.admin,
      body: { merchantId, period: period() },
    });
    ids = { card: cards.body.data.items[0]?.id as string, invoice: invoice.body.data.id };
  });

  it("needs a credential (401) and the billing scope (403), which admin implies", async () => {
    const orders = await scopedKey(tenant, [
      "read:orders",
      "write:orders",
      "read:inventory",
      "read:products",
    ]);
    for (const [method, path] of routes(ids)) {
      const body = method === "GET" ? undefined : {};
      expect((await call(method, path, { body })).status, `${method} ${path}`).toBe(401);
      expect((await call(method, path, { headers: orders, body })).status, `${method} ${path}`).toBe(403);
    }
    const billing = await scopedKey(tenant, ["billing"]);
    expect((await call("GET", `/billing/invoices/${ids.invoice}`, { headers: billing })).status).toBe(200);
  });

  it("answers 404 for another tenant's cards, invoices and merchants", async () => {
    for (const [method, path] of [
      ["GET", `/billing/rate-cards/${ids.card}`],
      ["GET", `/billing/invoices/${ids.invoice}`],
      ["POST", `/billing/invoices/${ids.invoice}/void`],
    ] as const) {
      expect((await call(method, path, { headers: other.admin })).status, path).toBe(404);
    }
    const post = await call("POST", "/billing/invoices", {
      headers: other.admin,
      body: { merchantId, period: period() },
    });
    expect(post.status).toBe(404);
    for (const path of ["/billing/rate-cards", "/billing/invoices"] as const) {
      expect((await call("GET", path, { headers: other.admin })).body.data.items).toEqual([]);
    }
    expect(
      (await call("GET", `/billing/invoices/${ids.invoice}`, { headers: tenant.admin })).body.data.status,
    ).toBe("issued");
  });

  it("lets a merchant's own credential read its own cards, charges and invoices only, and write none (403)", async () => {
    const key = await call("POST", "/api-keys", {
      headers: tenant.admin,
      body: { name: "merchant billing", scopes: ["billing"], merchantId },
    });
    const asMerchant = { "x-api-key": key.body.data.key };
    const otherKey = await call("POST", "/api-keys", {
      headers: tenant.admin,
      body: { name: "other merchant billing", scopes: ["billing"], merchantId: otherMerchantId },
    });
    const asOther = { "x-api-key": otherKey.body.data.key };

    const own = await call("GET", `/billing/invoices/${ids.invoice}`, { headers: asMerchant });
    expect(own.status).toBe(200);
    expect((await call("GET", `/billing/invoices/${ids.invoice}`, { headers: asOther })).status).toBe(404);
    expect((await call("GET", `/billing/rate-cards/${ids.card}`, { headers: asOther })).status).toBe(404);
    const theirs = await call("GET", "/billing/invoices", { headers: asOther });
    expect(theirs.body.data.items).toEqual([]);
    const cards = await call("GET", "/billing/rate-cards", { headers: asOther });
    expect(cards.body.data.items.map((c: { merchantId: string }) => c.merchantId)).toEqual([otherMerchantId]);
    const charges = await call("GET", `/billing/charges?from=${monthStart()}&to=${today()}&pageSize=100`, {
      headers: asMerchant,
    });
    expect(charges.status).toBe(200);
    expect(charges.body.data.merchantId).toBe(merchantId);
    expect(charges.body.data.totalCount).toBe(10);
    const peek = await call(
      "GET",
      `/billing/charges?merchantId=${merchantId}&from=${today()}&to=${today()}`,
      {
        headers: asOther,
      },
    );
    expect(peek.status).toBe(404);

    for (const [method, path, body] of [
      [
        "POST",
        "/billing/rate-cards",
        { merchantId, currency: "EUR", effectiveFrom: "2026-03-01", rates: RATES },
      ],
      ["POST", "/billing/invoices", { merchantId, period: period() }],
      ["POST", `/billing/invoices/${ids.invoice}/void`, undefined],
    ] as const) {
      expect((await call(method, path, { headers: asMerchant, body })).status, path).toBe(403);
    }
    expect(
      (await call("GET", `/billing/invoices/${ids.invoice}`, { headers: tenant.admin })).body.data.status,
    ).toBe("issued");
  });
});
