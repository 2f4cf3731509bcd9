import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../src/index";
import { retryDelaySeconds } from "../src/webhook-delivery/retry-schedule";
import { redispatchLost, UNPROCESSED_MS } from "../src/webhooks/dispatch-sweep";
import { createProduct, createTenant, stockedProduct, type TestTenant } from "./support/builders";
import { tenantDatabase } from "./support/database";
import { call } from "./support/http";
import { stubReceiver } from "./support/webhook-receiver";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

async function subscribe(events = ["*"], url = "https://receiver.example.com/hook") {
  const res = await call("POST", "/webhooks", { headers: tenant.admin, body: { url, events } });
  expect(res.status).toBe(201);
  return res.body.data;
}

/** An event and its pending delivery, written directly and NOT queued, so only this test's batch delivers it. */
async function pendingDelivery(subscriptionId: string, attempts = 0) {
  const eventId = crypto.randomUUID();
  const deliveryId = crypto.randomUUID();
  const now = new Date().toISOString();
  const db = await tenantDatabase(tenant.id);
  await db.batch([
    db
      .prepare(
        `insert into outbox_events (id, tenant_id, type, payload, created_at, dispatched_at, seq) values (?, ?, 'product.updated', ?, ?, ?,
          (select coalesce(max(seq), 0) + 1 from outbox_events where tenant_id = ?2))`,
      )
      .bind(eventId, tenant.id, JSON.stringify({ id: "p1", sku: "SKU-1" }), now, now),
    db
      .prepare(
        `insert into webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempts, created_at, updated_at)
         values (?, ?, ?, ?, 'product.updated', 'pending', ?, ?, ?)`,
      )
      .bind(deliveryId, tenant.id, subscriptionId, eventId, attempts, now, now),
  ]);
  return { eventId, deliveryId };
}

async function consume(deliveryId: string, queue = "webhook-deliveries") {
  const batch = createMessageBatch(queue, [
    {
      id: "msg-1",
      timestamp: new Date(),
      attempts: 1,
      body: { kind: "delivery", tenantId: tenant.id, deliveryId },
    },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch as never, env);
  return getQueueResult(batch, ctx);
}

/** The delivery as GET /webhooks/{id}/deliveries shows it. */
async function delivery(subscriptionId: string, deliveryId: string) {
  const res = await call("GET", `/webhooks/${subscriptionId}/deliveries?pageSize=100`, {
    headers: tenant.admin,
  });
  return res.body.data.items.find((item: { id: string }) => item.id === deliveryId);
}

/** The subscription as GET /webhooks/{id} shows it. */
const subscription = async (id: string) =>
  (await call("GET", `/webhooks/${id}`, { headers: tenant.admin })).body.data;

/** Changes a subscription under the API, as time passing or an older release would have left it. */
const alterSubscription = async (id: string, column: "failing_since" | "url", value: string) =>
  (await tenantDatabase(tenant.id))
    .prepare(`update webhook_subscriptions set ${column} = ? where id = ?`)
    .bind(value, id)
    .run();

describe("delivery", () => {
  it("signs per Standard Webhooks and records a 2xx as success", async () => {
    const { id, secret } = await subscribe();
    const { eventId, deliveryId } = await pendingDelivery(id);
    const { received } = stubReceiver();
    const result = await consume(deliveryId);
    expect(result.explicitAcks).toEqual(["msg-1"]);
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request!.url).toBe("https://receiver.example.com/hook");
    expect(request!.headers["webhook-id"]).toBe(eventId);
    const payload = new Webhook(secret).verify(request!.body, request!.headers) as Record<string, unknown>;
    expect(payload).toMatchObject({ type: "product.updated", data: { id: "p1", sku: "SKU-1" } });
    expect(await delivery(id, deliveryId)).toMatchObject({
      status: "succeeded",
      attempts: 1,
      lastStatusCode: 200,
    });
  });

  it("retries a 5xx after about 5 s with jitter, keeping the same webhook-id", async () => {
    const { id } = await subscribe();
    const { deliveryId } = await pendingDelivery(id);
    const { received } = stubReceiver(() => new Response("down", { status: 503 }));
    const first = await consume(deliveryId);
    expect(first.retryMessages).toHaveLength(1);
    const pending = await delivery(id, deliveryId);
    expect(pending).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 503 });
    // The queue's retry delay is not observable here, so the delay is read back from the delivery.
    const delayMs = Date.parse(pending!.nextAttemptAt ?? "") - Date.parse(pending!.updatedAt);
    expect(delayMs).toBeGreaterThanOrEqual(5000);
    expect(delayMs).toBeLessThanOrEqual(6000);
    expect((await subscription(id)).failingSince).toEqual(expect.any(String));
    const second = await consume(deliveryId);
    expect(second.retryMessages).toHaveLength(1);
    const after = await delivery(id, deliveryId);
    expect(after).toMatchObject({ attempts: 2 });
    expect(Date.parse(after!.nextAttemptAt ?? "") - Date.parse(after!.updatedAt)).toBeGreaterThanOrEqual(
      300_000,
    );
    expect(received[0]!.headers["webhook-id"]).toBe(received[1]!.headers["webhook-id"]);
  });

  it("follows the contract's schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then stops", () => {
    const noJitter = () => 0;
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelaySeconds(n, noJitter))).toEqual([
      5,
      300,
      1800,
      7200,
      18000,
      36000,
      36000,
      null,
    ]);
    expect(retryDelaySeconds(1, () => 1)).toBe(6);
  });

  it("treats a redirect as a failure and never follows it", async () => {
    const { id } = await subscribe();
    const { deliveryId } = await pendingDelivery(id);
    const { received } = stubReceiver(
      () => new Response(null, { status: 302, headers: { location: "http://169.254.169.254/" } }),
    );
    const result = await consume(deliveryId);
    expect(result.retryMessages).toHaveLength(1);
    expect(received).toHaveLength(1);
    expect(await delivery(id, deliveryId)).toMatchObject({
      lastStatusCode: 302,
      lastError: "receiver answered 302",
    });
  });

  it("records a timeout as a failure to retry", async () => {
    const { id } = await subscribe();
    const { deliveryId } = await pendingDelivery(id);
    stubReceiver(() => {
      throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
    });
    const result = await consume(deliveryId);
    expect(result.retryMessages).toHaveLength(1);
    expect(await delivery(id, deliveryId)).toMatchObject({
      status: "pending",
      lastError: "timed out after 10 s",
    });
  });

  it("disables the subscription on 410 Gone", async () => {
    const { id } = await subscribe();
    const { deliveryId } = await pendingDelivery(id);
    stubReceiver(() => new Response("gone", { status: 410 }));
    const result = await consume(deliveryId);
    expect(result.explicitAcks).toEqual(["msg-1"]);
    expect(await subscription(id)).toMatchObject({
      active: false,
      disabledReason: "The receiver answered 410 Gone",
    });
  });

  it("keeps the delivery as a dead letter after the last attempt, retryable by hand", async () => {
    const { id } = await subscribe();
    const { deliveryId } = await pendingDelivery(id, 7);
    stubReceiver(() => new Response("still down", { status: 500 }));
    const result = await consume(deliveryId);
    expect(result.explicitAcks).toEqual(["msg-1"]);
    expect(await delivery(id, deliveryId)).toMatchObject({ status: "failed", attempts: 8 });

    const list = await call("GET", `/webhooks/${id}/deliveries?status=failed`, { headers: tenant.admin });
    expect(list.body.data.items[0]).toMatchObject({
      id: deliveryId,
      status: "failed",
      attempts: 8,
      lastStatusCode: 500,
      attemptLog: [expect.objectContaining({ attempt: 8, statusCode: 500, error: "receiver answered 500" })],
    });

    const { received } = stubReceiver();
    const retry = await call("POST", `/webhooks/${id}/deliveries/${deliveryId}/retry`, {
      headers: tenant.admin,
    });
    expect(retry.status).toBe(202);
    await expect
      .poll(async () => (await delivery(id, deliveryId))?.status, { timeout: 5000 })
      .toBe("succeeded");
    expect(received).toHaveLength(1);
  });

  it("disables a subscription whose deliveries have failed for 5 days", async () => {
    const { id } = await subscribe();
    await alterSubscription(id, "failing_since", new Date(Date.now() - 6 * 86_400_000).toISOString());
    const { deliveryId } = await pendingDelivery(id);
    stubReceiver(() => new Response("down", { status: 500 }));
    await consume(deliveryId);
    expect(await subscription(id)).toMatchObject({
      active: false,
      disabledReason: "Every delivery failed for 5 days",
    });
  });

  it("checks the URL again right before sending: one stored before a rule existed is never called", async () => {
    const { id } = await subscribe();
    // As a subscription saved before trailing dots were normalised would be stored.
    await alterSubscription(id, "url", "https://metadata.google.internal./computeMetadata/v1/");
    const { deliveryId } = await pendingDelivery(id);
    const { received } = stubReceiver();
    await consume(deliveryId);
    expect(received).toEqual([]);
    expect(await delivery(id, deliveryId)).toMatchObject({
      status: "failed",
      lastError: "refused before sending: url: must be a public host name",
    });
  });

  it("sends to the host name it checked: lower case, without the trailing dot", async () => {
    const { id } = await subscribe(["*"], "https://Receiver.Example.com./hook?x=1");
    const { deliveryId } = await pendingDelivery(id);
    const { received } = stubReceiver();
    await consume(deliveryId);
    expect(received.map((r) => r.url)).toEqual(["https://receiver.example.com/hook?x=1"]);
  });

  it("records messages from the dead-letter queue", async () => {
    const { id } = await subscribe();
    const { deliveryId } = await pendingDelivery(id);
    const result = await consume(deliveryId, "webhook-deliveries-dlq");
    expect(result.explicitAcks).toEqual(["msg-1"]);
    expect(await delivery(id, deliveryId)).toMatchObject({
      status: "failed",
      lastError: "dead-lettered after repeated consumer errors",
    });
  });
});

describe("dispatch", () => {
  it("delivers a stock adjustment to a matching subscription, signed, with the resource after the change", async () => {
    const t = await createTenant();
    const { secret } = (
      await call("POST", "/webhooks", {
        headers: t.admin,
        body: { url: "https://erp.example.com/stock", events: ["inventory.adjusted"] },
      })
    ).body.data;
    await call("POST", "/webhooks", {
      headers: t.admin,
      body: { url: "https://erp.example.com/orders", events: ["order.created"] },
    });
    const { received } = stubReceiver();
    const { productId, locationId } = await stockedProduct(t, 7);
    await expect.poll(() => received.length, { timeout: 5000 }).toBe(1);
    const [request] = received;
    expect(request!.url).toBe("https://erp.example.com/stock");
    const payload = new Webhook(secret).verify(request!.body, request!.headers);
    expect(payload).toMatchObject({
      type: "inventory.adjusted",
      data: { productId, delta: 7, stockLevel: { locationId, onHand: 7, available: 7 } },
    });
  });

  it("marks an event no subscription wants processed, with no delivery, so the sweep never hands it off again", async () => {
    const t = await createTenant();
    await call("POST", "/webhooks", {
      headers: t.admin,
      body: { url: "https://erp.example.com/orders", events: ["order.created"] },
    });
    await call("POST", "/webhooks", {
      headers: t.admin,
      body: { url: "https://erp.example.com/off", events: ["*"], active: false },
    });
    const { received } = stubReceiver();
    await createProduct(t);
    const db = await tenantDatabase(t.id);
    const event = () =>
      db
        .prepare(
          `select processed_at, (select count(*) from webhook_deliveries d where d.event_id = o.id) as deliveries
           from outbox_events o where tenant_id = ? and type = 'product.created'`,
        )
        .bind(t.id)
        .first<{ processed_at: string | null; deliveries: number }>();
    await expect
      .poll(async () => (await event())?.processed_at, { timeout: 5000 })
      .toEqual(expect.any(String));
    expect((await event())?.deliveries).toBe(0);
    expect(received).toHaveLength(0);
  });

  it("the cron sweep re-enqueues an event whose hand-off was lost", async () => {
    const t = await createTenant();
    await call("POST", "/webhooks", {
      headers: t.admin,
      body: { url: "https://erp.example.com/all", events: ["*"] },
    });
    const eventId = crypto.randomUUID();
    // An event committed a minute ago whose hand-off to the queue never happened.
    await (await tenantDatabase(t.id))
      .prepare(
        `insert into outbox_events (id, tenant_id, type, payload, created_at, seq) values (?, ?, 'product.created', ?, ?,
          (select coalesce(max(seq), 0) + 1 from outbox_events where tenant_id = ?2))`,
      )
      .bind(eventId, t.id, JSON.stringify({ id: "p9" }), new Date(Date.now() - 60_000).toISOString())
      .run();
    const { received } = stubReceiver();
    expect((await redispatchLost(env)).events).toBeGreaterThanOrEqual(1);
    await expect
      .poll(() => received.some((r) => r.headers["webhook-id"] === eventId), { timeout: 5000 })
      .toBe(true);
    const event = await (await tenantDatabase(t.id))
      .prepare("select dispatched_at from outbox_events where id = ?")
      .bind(eventId)
      .first();
    expect(event?.dispatched_at).toEqual(expect.any(String));
  });

  it("the cron sweep hands off again an event whose queue message was lost after its hand-off, delivered once", async () => {
    const t = await createTenant();
    await call("POST", "/webhooks", {
      headers: t.admin,
      body: { url: "https://erp.example.com/restarted", events: ["*"] },
    });
    const db = await tenantDatabase(t.id);
    const eventId = crypto.randomUUID();
    const handedOffAt = new Date(Date.now() - UNPROCESSED_MS - 60_000).toISOString();
    // Handed to the queue four minutes ago, and the message died there (wrangler dev killed with its local queue).
    await db
      .prepare(
        `insert into outbox_events (id, tenant_id, type, payload, created_at, dispatched_at, seq) values (?, ?, 'product.created', ?, ?, ?,
          (select coalesce(max(seq), 0) + 1 from outbox_events where tenant_id = ?2))`,
      )
      .bind(eventId, t.id, JSON.stringify({ id: "p-lost" }), handedOffAt, handedOffAt)
      .run();
    const { received } = stubReceiver();
    expect((await redispatchLost(env)).events).toBeGreaterThanOrEqual(1);
    await expect
      .poll(() => received.filter((r) => r.headers["webhook-id"] === eventId).length, { timeout: 5000 })
      .toBe(1);
    const processed = () =>
      db
        .prepare("select processed_at, dispatched_at from outbox_events where id = ?")
        .bind(eventId)
        .first<{ processed_at: string | null; dispatched_at: string }>();
    await expect
      .poll(async () => (await processed())?.processed_at, { timeout: 5000 })
      .toEqual(expect.any(String));
    expect(Date.parse((await processed())!.dispatched_at)).toBeGreaterThan(Date.parse(handedOffAt));

    // The lost message turns up after all, twice: the consumer creates and sends no second delivery.
    const message = (id: string) => ({
      id,
      timestamp: new Date(),
      attempts: 1,
      body: { kind: "event", tenantId: t.id, eventId },
    });
    const batch = createMessageBatch("webhook-deliveries", [message("late-1"), message("late-2")]);
    const ctx = createExecutionContext();
    await worker.queue(batch as never, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["late-1", "late-2"]);
    const deliveries = await db
      .prepare("select count(*) as n from webhook_deliveries where event_id = ?")
      .bind(eventId)
      .first<{ n: number }>();
    expect(deliveries?.n).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(received.filter((r) => r.headers["webhook-id"] === eventId)).toHaveLength(1);
  });

  it("the cron sweep re-queues a pending delivery whose queue message was lost, once", async () => {
    const { id: subscriptionId } = await subscribe(["*"], "https://erp.example.com/stranded");
    const { eventId, deliveryId } = await pendingDelivery(subscriptionId);
    const db = await tenantDatabase(tenant.id);
    // Fanned out ten minutes ago; its message died with the isolate before the queue delivered it.
    await db
      .prepare("update webhook_deliveries set next_attempt_at = ? where id = ?")
      .bind(new Date(Date.now() - 10 * 60_000).toISOString(), deliveryId)
      .run();
    const { received } = stubReceiver();
    expect((await redispatchLost(env)).deliveries).toBeGreaterThanOrEqual(1);
    // Queued again with its attempt time moved to now: the next run leaves it to the queue.
    const requeued = await db
      .prepare("select next_attempt_at from webhook_deliveries where id = ?")
      .bind(deliveryId)
      .first<{ next_attempt_at: string }>();
    expect(Date.parse(requeued!.next_attempt_at)).toBeGreaterThan(Date.now() - 60_000);
    await expect
      .poll(() => received.some((r) => r.headers["webhook-id"] === eventId), { timeout: 5000 })
      .toBe(true);
    const delivery = await db
      .prepare("select status from webhook_deliveries where id = ?")
      .bind(deliveryId)
      .first<{ status: string }>();
    expect(delivery?.status).toBe("succeeded");
  });
});
