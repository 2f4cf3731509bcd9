import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { eventTypes, feedTypes } from "../src/outbox/catalog";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  purchaseOrder,
  receiveLot,
  salesOrder,
  setStatus,
  type TestTenant,
} from "./support/builders";
import { call } from "./support/http";
import { runJob, upload } from "./support/jobs";
import { type SchemaObject, servedDocument, webhookProblem } from "./support/openapi";
import { type Received, stubReceiver } from "./support/webhook-receiver";

// Issue 27 item 14: an event's `data` is typed per event type, in the feed (`Event`, a oneOf discriminated by
// `type`) and in the OpenAPI 3.1 `webhooks` a receiver reads. The document is checked against real events.

interface FeedItem {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

const ok = async <T>(response: Promise<{ status: number; body: { data: unknown } }>, status = 200) => {
  const res = await response;
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.data as T;
};

/** Every change of the catalogue once, through the API (and a test delivery for `webhook.test`). */
async function everyEvent(tenant: TestTenant, subscriptionId: string) {
  const admin = tenant.admin;
  const warehouseId = (await createWarehouse(tenant)).id;
  const binLocation = await createLocation(tenant, warehouseId);
  const [bin, other] = [binLocation.id, (await createLocation(tenant, warehouseId)).id];
  // product.created, .updated, .deleted
  const product = await createProduct(tenant, { reorderPoint: 5 });
  await ok(call("PATCH", `/products/${product.id}`, { headers: admin, body: { name: "Renamed widget" } }));
  const doomed = await createProduct(tenant);
  await ok(call("DELETE", `/products/${doomed.id}`, { headers: admin }));
  // inventory.adjusted (plain and with a lot), .transferred, .low_stock (10 -> 4 crosses the reorder point 5)
  await adjustStock(tenant, product.id, bin, 9);
  // The batch writes its own inventory.adjusted (src/stock/stock-lines.ts): the same schema.
  await ok(
    call("POST", "/inventory/adjustments/batch", {
      headers: admin,
      body: {
        lines: [{ sku: product.sku, locationCode: binLocation.code, quantity: 1, reason: "received" }],
      },
    }),
  );
  const lotted = await createProduct(tenant, { tracking: "lot" });
  await receiveLot(tenant, lotted.id, bin, 3, { lotNumber: "LOT-A", expiresAt: "2099-01-31" });
  await ok(
    call("POST", "/inventory/transfers", {
      headers: admin,
      body: { productId: product.id, fromLocationId: bin, toLocationId: other, quantity: 2 },
    }),
    201,
  );
  await adjustStock(tenant, product.id, bin, -4);
  // inventory.hold_created, .hold_released
  const hold = await ok<{ id: string }>(
    call("POST", "/inventory/holds", {
      headers: admin,
      body: { productId: product.id, quantity: 1, expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
    }),
    201,
  );
  await ok(call("DELETE", `/inventory/holds/${hold.id}`, { headers: admin }));
  // inventory.count_approved
  const count = await ok<{ id: string }>(
    call("POST", "/inventory/counts", { headers: admin, body: { locationIds: [other] } }),
    201,
  );
  await ok(
    call("PUT", `/inventory/counts/${count.id}/lines`, {
      headers: admin,
      body: { lines: [{ productId: product.id, locationId: other, counted: 1 }] },
    }),
  );
  await ok(call("POST", `/inventory/counts/${count.id}/submit`, { headers: admin }));
  await ok(call("POST", `/inventory/counts/${count.id}/approve`, { headers: admin }));
  // order.created, .status_changed, .shipped, .delivered, .cancelled
  const sale = await ok<{ id: string; lines: { id: string }[] }>(
    salesOrder(tenant, [{ productId: product.id, quantity: 1 }]),
    201,
  );
  for (const status of ["confirmed", "picking", "shipped", "delivered"]) {
    await ok(setStatus(tenant, sale.id, { status }));
  }
  const cancelled = await ok<{ id: string }>(
    salesOrder(tenant, [{ productId: product.id, quantity: 1 }]),
    201,
  );
  await ok(setStatus(tenant, cancelled.id, { status: "cancelled" }));
  // pick_list.created, order.backordered and pick_list.completed (its one line shorted), pick_list.cancelled
  const pickList = async () => {
    const order = await ok<{ id: string }>(salesOrder(tenant, [{ productId: product.id, quantity: 1 }]), 201);
    await ok(setStatus(tenant, order.id, { status: "confirmed" }));
    return ok<{ id: string; lines: { id: string }[] }>(
      call("POST", "/pick-lists", { headers: admin, body: { warehouseId, orderIds: [order.id] } }),
      201,
    );
  };
  const shorted = await pickList();
  await ok(
    call("POST", `/pick-lists/${shorted.id}/shorts`, {
      headers: admin,
      body: { lineId: shorted.lines[0]?.id, quantity: 1, reason: "bin empty" },
    }),
  );
  await ok(call("POST", `/pick-lists/${(await pickList()).id}/cancel`, { headers: admin }));
  // order.partially_shipped (and .status_changed) from a shipment of part of an order, shipment.dispatched
  const parted = await ok<{ id: string; lines: { id: string }[] }>(
    salesOrder(tenant, [{ productId: product.id, quantity: 2 }], { warehouseId }),
    201,
  );
  await ok(setStatus(tenant, parted.id, { status: "confirmed" }));
  const shipment = await ok<{ id: string }>(
    call("POST", `/orders/${parted.id}/shipments`, {
      headers: admin,
      body: {
        carrier: "dhl",
        packages: [
          { weight: { value: 1.5, unit: "kg" }, lines: [{ orderLineId: parted.lines[0]?.id, quantity: 1 }] },
        ],
      },
    }),
    201,
  );
  await ok(call("POST", `/shipments/${shipment.id}/dispatch`, { headers: admin }));
  // shipment.cancelled: the rest shipped, then cancelled before dispatch
  const rest = await ok<{ id: string }>(
    call("POST", `/orders/${parted.id}/shipments`, {
      headers: admin,
      body: {
        packages: [
          { weight: { value: 1, unit: "kg" }, lines: [{ orderLineId: parted.lines[0]?.id, quantity: 1 }] },
        ],
      },
    }),
    201,
  );
  await ok(call("POST", `/shipments/${rest.id}/cancel`, { headers: admin }));
  // return.created, .received (restocked) and .closed, of the delivered order's unit
  const rma = await ok<{ id: string; lines: { id: string }[] }>(
    call("POST", "/returns", {
      headers: admin,
      body: { orderId: sale.id, lines: [{ orderLineId: sale.lines[0]?.id, quantity: 1, reason: "damaged" }] },
    }),
    201,
  );
  await ok(call("PATCH", `/returns/${rma.id}/status`, { headers: admin, body: { status: "authorized" } }));
  await ok(
    call("POST", `/returns/${rma.id}/receipts`, {
      headers: admin,
      body: {
        lines: [{ returnLineId: rma.lines[0]?.id, quantity: 1, disposition: "restock", locationId: bin }],
      },
    }),
  );
  await ok(call("PATCH", `/returns/${rma.id}/status`, { headers: admin, body: { status: "closed" } }));
  // purchase_order.received, into a lot
  const bought = await ok<{ id: string; lines: { id: string }[] }>(
    purchaseOrder(tenant, warehouseId, [{ productId: lotted.id, quantity: 4 }]),
    201,
  );
  await ok(setStatus(tenant, bought.id, { status: "ordered" }));
  await ok(
    call("POST", `/orders/${bought.id}/receive`, {
      headers: admin,
      body: { lines: [{ lineId: bought.lines[0]?.id, quantity: 4, locationId: bin, lotNumber: "LOT-B" }] },
    }),
  );
  // job.succeeded (an export), job.failed (an import of a file without rows)
  expect((await runJob(admin, { type: "products_export" })).status).toBe("succeeded");
  const empty = await upload(admin, "sku,locationCode,quantity\n");
  expect((await runJob(admin, { type: "stock_import", uploadId: empty })).status).toBe("failed");
  // invoice.created and invoice.voided, of a merchant with a rate card
  const merchant = await ok<{ id: string }>(
    call("POST", "/merchants", { headers: admin, body: { code: "BILLED", name: "Billed" } }),
    201,
  );
  await ok(
    call("POST", "/billing/rate-cards", {
      headers: admin,
      body: {
        merchantId: merchant.id,
        currency: "EUR",
        effectiveFrom: "2026-01-01",
        rates: [{ activity: "minimum", per: "month", unitPrice: 100 }],
      },
    }),
    201,
  );
  const invoice = await ok<{ id: string }>(
    call("POST", "/billing/invoices", {
      headers: admin,
      body: { merchantId: merchant.id, period: "2026-10" },
    }),
    201,
  );
  await ok(call("POST", `/billing/invoices/${invoice.id}/void`, { headers: admin }));
  // webhook.test
  await ok(call("POST", `/webhooks/${subscriptionId}/test`, { headers: admin }), 202);
}

async function readFeed(tenant: TestTenant): Promise<FeedItem[]> {
  const items: FeedItem[] = [];
  let after = "";
  for (;;) {
    const page = await ok<{ items: FeedItem[]; nextCursor: string; hasMore: boolean }>(
      call("GET", `/events?limit=500${after}`, { headers: tenant.admin }),
    );
    items.push(...page.items);
    if (!page.hasMore) return items;
    after = `&after=${page.nextCursor}`;
  }
}

describe("events in the document", () => {
  let tenant: TestTenant;
  let secret: string;
  let received: Received[];
  let feed: FeedItem[];

  beforeAll(async () => {
    tenant = await createTenant();
    const subscription = await ok<{ id: string; secret: string }>(
      call("POST", "/webhooks", {
        headers: tenant.admin,
        body: { url: "https://receiver.example.com/all", events: ["*"] },
      }),
      201,
    );
    secret = subscription.secret;
    ({ received } = stubReceiver());
    await everyEvent(tenant, subscription.id);
    feed = await readFeed(tenant);
    const delivered = () => new Set(received.map((r) => (JSON.parse(r.body) as { type: string }).type));
    await vi.waitFor(() => expect(delivered().size).toBe(eventTypes.length), {
      timeout: 60_000,
      interval: 200,
    });
  }, 180_000);

  it("types Event.data per event type: a oneOf over every feed type, discriminated by type", async () => {
    const document = await servedDocument();
    const schemas = document.components?.schemas ?? {};
    const event = schemas.Event as SchemaObject & {
      discriminator?: { propertyName: string; mapping: object };
    };
    expect(event.discriminator?.propertyName).toBe("type");
    expect(Object.keys(event.discriminator?.mapping ?? {}).sort()).toEqual([...feedTypes].sort());
    expect(event.oneOf).toHaveLength(feedTypes.length);
    for (const variant of event.oneOf ?? []) {
      const target = schemas[(variant.$ref ?? "").replace("#/components/schemas/", "")];
      // `data` names its schema: a generated client gets a typed payload, not `unknown`.
      expect(target?.properties?.data?.$ref, variant.$ref).toMatch(/^#\/components\/schemas\/\w+$/);
    }
  });

  it("documents a webhook per event type, signed with the Standard Webhooks headers", async () => {
    const { webhooks = {} } = await servedDocument();
    expect(Object.keys(webhooks).sort()).toEqual([...eventTypes].sort());
    for (const [type, { post }] of Object.entries(webhooks)) {
      const headers = (post?.parameters ?? [])
        .filter((p) => p.in === "header" && p.required)
        .map((p) => p.name);
      expect(headers, type).toEqual(
        expect.arrayContaining(["webhook-id", "webhook-timestamp", "webhook-signature"]),
      );
      const body = post?.requestBody?.content["application/json"]?.schema;
      expect(body?.$ref, type).toBeDefined();
    }
  });

  it("serves every feed type, each item matching its type's schema", () => {
    // Every answer of `call` is checked against the document, so reading the feed validated each item's data
    // against its type's variant; this asserts the scenario reached every type of the catalogue.
    expect(new Set(feed.map((item) => item.type))).toEqual(new Set(feedTypes));
  });

  it("delivers every event type as the document's webhooks describe it, headers and body", async () => {
    const webhook = new Webhook(secret);
    const problems: string[] = [];
    for (const delivery of received) {
      webhook.verify(delivery.body, delivery.headers);
      const problem = await webhookProblem(delivery);
      if (problem) problems.push(`${JSON.parse(delivery.body).type}: ${problem}`);
    }
    expect(problems).toEqual([]);
    // The same event, the same data: a delivery is the feed item without its id.
    const byId = new Map(feed.map((item) => [item.id, item]));
    for (const delivery of received) {
      const item = byId.get(delivery.headers["webhook-id"] ?? "");
      if (item) expect(JSON.parse(delivery.body)).toMatchObject({ type: item.type, data: item.data });
    }
  });

  it("refuses, by the document, a delivery whose data is another type's", async () => {
    const product = received.find((r) => JSON.parse(r.body).type === "product.created");
    const order = received.find((r) => JSON.parse(r.body).type === "order.created");
    if (!product || !order) throw new Error("no product.created or order.created delivery");
    const mixed = { ...JSON.parse(product.body), data: JSON.parse(order.body).data };
    expect(await webhookProblem({ headers: product.headers, body: JSON.stringify(mixed) })).toMatch(
      /the body:/,
    );
  });
});
