import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { assert, describe, expect, it } from "vitest";
import worker from "../src/index";
import { DELIVERIES_ATTEMPTED_NOW } from "../src/webhook-delivery/deliver-now";
import { EVENTS_FANNED_OUT_NOW } from "../src/webhook-delivery/fan-out-now";
import { createTenant, type TestTenant } from "./support/builders";
import { outboxEvents, tenantDatabase } from "./support/database";
import { BASE, call, fetchApi } from "./support/http";
import { stubReceiver } from "./support/webhook-receiver";

// A change's first webhook attempt leaves from the committing request's own waitUntil, not after the queue's batch
// waits (issue #35): these tests run the request and its waitUntil to the end, and look before any consumer could.

/** A request through the Worker's fetch handler, returned once its waitUntil work has finished too. */
async function sendAndSettle(t: TestTenant, method: string, path: string, body?: unknown) {
  const ctx = createExecutionContext();
  const response = await fetchApi(
    new Request(`${BASE}${path}`, {
      method,
      headers: { ...t.admin, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    (request) => worker.fetch(request, env, ctx),
  );
  await waitOnExecutionContext(ctx);
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
}

async function subscribe(t: TestTenant, events: string[], path = "hook") {
  const res = await call("POST", "/webhooks", {
    headers: t.admin,
    body: { url: `https://receiver.example.com/${path}`, events },
  });
  expect(res.status).toBe(201);
  return res.body.data;
}

/** The subscription's deliveries as GET /webhooks/{id}/deliveries shows them. */
const deliveries = async (t: TestTenant, subscriptionId: string) =>
  (await call("GET", `/webhooks/${subscriptionId}/deliveries?pageSize=100`, { headers: t.admin })).body.data
    .items;

const newProduct = (i = 0) => ({ sku: `FAST-${crypto.randomUUID()}-${i}`, name: "Fast", price: 1 });

describe("a change's first webhook attempt", () => {
  it("reaches the receiver, signed, from the committing request itself, with the attempt recorded", async () => {
    const t = await createTenant();
    const { id, secret } = await subscribe(t, ["product.created"]);
    const { received } = stubReceiver();
    const created = await sendAndSettle(t, "POST", "/products", newProduct());
    expect(created.status).toBe(201);

    // No queue batch has been waited for: the request's waitUntil made the attempt.
    expect(received).toHaveLength(1);
    const [event] = await outboxEvents(t, /^product\.created$/);
    expect(received[0]!.headers["webhook-id"]).toBe(event!.id);
    expect(new Webhook(secret).verify(received[0]!.body, received[0]!.headers)).toMatchObject({
      type: "product.created",
      data: { id: created.body.data.id },
    });
    expect(await deliveries(t, id)).toEqual([
      expect.objectContaining({
        eventId: event!.id,
        status: "succeeded",
        attempts: 1,
        lastStatusCode: 200,
        attemptLog: [expect.objectContaining({ attempt: 1, statusCode: 200 })],
      }),
    ]);
  });

  it("is made by the request for a test event and for a delivery retried by hand", async () => {
    const t = await createTenant();
    const { id } = await subscribe(t, ["order.created"]);
    const { received } = stubReceiver();
    const test = await sendAndSettle(t, "POST", `/webhooks/${id}/test`);
    expect(test.status).toBe(202);
    expect(received.map((r) => r.headers["webhook-id"])).toEqual([test.body.data.eventId]);

    const retried = await sendAndSettle(
      t,
      "POST",
      `/webhooks/${id}/deliveries/${test.body.data.deliveryId}/retry`,
    );
    expect(retried.status).toBe(202);
    expect(received.map((r) => r.headers["webhook-id"])).toEqual([
      test.body.data.eventId,
      test.body.data.eventId,
    ]);
    expect(await deliveries(t, id)).toEqual([
      expect.objectContaining({ id: test.body.data.deliveryId, status: "succeeded", attempts: 1 }),
    ]);
  });

  it("refused by the receiver, is retried through the queue after its delay, and ends delivered once", async () => {
    const t = await createTenant();
    const { id } = await subscribe(t, ["product.created"]);
    let refuse = true;
    const { received } = stubReceiver(
      () => new Response(refuse ? "busy" : "ok", { status: refuse ? 503 : 200 }),
    );
    await sendAndSettle(t, "POST", "/products", newProduct());
    refuse = false;
    expect(received).toHaveLength(1);
    const [pending] = await deliveries(t, id);
    assert(pending?.nextAttemptAt, "a refused first attempt leaves the delivery waiting for its retry");
    expect(pending).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 503 });
    const delayMs = Date.parse(pending.nextAttemptAt) - Date.parse(pending.updatedAt);
    expect(delayMs).toBeGreaterThanOrEqual(5000);

    // The retry waits out its delay in the queue: nothing more arrives for the first seconds.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(received).toHaveLength(1);
    await expect
      .poll(async () => (await deliveries(t, id))[0]?.status, { timeout: 15_000 })
      .toBe("succeeded");
    const [delivered] = await deliveries(t, id);
    assert(delivered);
    expect(delivered).toMatchObject({ id: pending.id, attempts: 2, lastStatusCode: 200 });
    expect(delivered.attemptLog.map((a) => a.statusCode).sort()).toEqual([200, 503]);
    expect(received.map((r) => r.headers["webhook-id"])).toEqual([
      received[0]!.headers["webhook-id"],
      received[0]!.headers["webhook-id"],
    ]);
  });

  it(`attempts at most ${DELIVERIES_ATTEMPTED_NOW} deliveries itself; the queue delivers the rest, each once`, async () => {
    const t = await createTenant();
    const subscriptions = DELIVERIES_ATTEMPTED_NOW + 2;
    for (let i = 0; i < subscriptions; i++) await subscribe(t, ["product.created"], `hook-${i}`);
    const { received } = stubReceiver();
    await sendAndSettle(t, "POST", "/products", newProduct());
    expect(received).toHaveLength(DELIVERIES_ATTEMPTED_NOW);
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(subscriptions);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(new Set(received.map((r) => r.url)).size).toBe(subscriptions);
    expect(received).toHaveLength(subscriptions);
  });

  it(`fans out at most ${EVENTS_FANNED_OUT_NOW} events itself; the queue fans out the rest, every event delivered once`, async () => {
    const t = await createTenant();
    const { id } = await subscribe(t, ["product.created"]);
    const { received } = stubReceiver();
    const count = EVENTS_FANNED_OUT_NOW + 5;
    const imported = await sendAndSettle(
      t,
      "POST",
      "/products/import",
      Array.from({ length: count }, (_, i) => newProduct(i)),
    );
    expect(imported.status).toBe(200);
    // The first attempts the request made itself; the events past the cap wait for the queue's consumer.
    expect(received).toHaveLength(DELIVERIES_ATTEMPTED_NOW);
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(count);
    const events = await outboxEvents(t, /^product\.created$/);
    expect(new Set(received.map((r) => r.headers["webhook-id"]))).toEqual(new Set(events.map((e) => e.id)));
    await expect
      .poll(
        async () =>
          (await deliveries(t, id)).filter((d: { status: string }) => d.status === "succeeded").length,
      )
      .toBe(count);
    const stored = await (await tenantDatabase(t.id))
      .prepare(
        "select count(*) as n, count(distinct event_id) as events from webhook_deliveries where subscription_id = ?",
      )
      .bind(id)
      .first<{ n: number; events: number }>();
    expect(stored).toEqual({ n: count, events: count });
  });
});
