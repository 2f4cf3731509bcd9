import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { fanOutEvent } from "../src/webhook-delivery/fan-out";
import { MAX_REDISPATCHES, redispatchLost, UNPROCESSED_MS } from "../src/webhooks/dispatch-sweep";
import { MAX_QUEUED } from "../src/webhooks/replay";
import { createProduct, createTenant, type TestTenant } from "./support/builders";
import { tenantDatabase } from "./support/database";
import { call } from "./support/http";
import { stubReceiver } from "./support/webhook-receiver";

// D1 binds at most 100 parameters per statement: every bulk statement of the webhooks is tried here at and
// past the sizes where a statement sized by rows rather than by parameters breaks.

/**
 * A `product.created` event committed `ago` ms ago, handed off then (or never), `redispatches` times again since.
 * Its payload is a real product's, so the feed shows it as the document describes the event.
 */
async function storedEvent(t: TestTenant, { ago = 0, handedOff = false, redispatches = 0 } = {}) {
  const id = crypto.randomUUID();
  const product = await createProduct(t);
  const at = new Date(Date.now() - ago).toISOString();
  const db = await tenantDatabase(t.id);
  await db
    .prepare(
      `insert into outbox_events (id, tenant_id, type, payload, created_at, dispatched_at, seq)
       values (?1, ?2, 'product.created', ?5, ?3, ?4,
         (select coalesce(max(seq), 0) + 1 from outbox_events where tenant_id = ?2))`,
    )
    .bind(id, t.id, at, handedOff ? at : null, JSON.stringify(product))
    .run();
  if (redispatches > 0) {
    await db.prepare("update outbox_events set redispatches = ? where id = ?").bind(redispatches, id).run();
  }
  return id;
}

/**
 * `count` subscriptions to every event, written under the API: its limit (20 a tenant) is a product rule, not
 * what keeps the fan-out's statements within D1's limits, so the fan-out is tried far past it. Their URL is
 * refused before sending, so their deliveries cost no receiver.
 */
async function manySubscriptions(t: TestTenant, count: number) {
  const now = new Date().toISOString();
  await (await tenantDatabase(t.id))
    .prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?1)
       insert into webhook_subscriptions (id, tenant_id, url, events, active, secret_ciphertext, created_at, updated_at)
       select ?2 || '-' || i, ?2, 'https://hooks.internal/' || i, '["*"]', 1, 'unused', ?3, ?3 from n`,
    )
    .bind(count, t.id, now)
    .run();
}

/**
 * `count` deliveries waiting for the subscription, of events that are not stored (standing in for a backlog).
 * Their ids are UUIDs: the subscription's own with the last 12 digits counting.
 */
async function waitingDeliveries(t: TestTenant, subscriptionId: string, count: number) {
  const now = new Date().toISOString();
  await (await tenantDatabase(t.id))
    .prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?1)
       insert into webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, replay_id, status,
         attempts, next_attempt_at, created_at, updated_at)
       select substr(?3, 1, 24) || printf('%012x', i), ?2, ?3, ?3 || '-e' || i, 'product.created', '', 'pending', 0,
         ?4, ?4, ?4 from n`,
    )
    .bind(count, t.id, subscriptionId, now)
    .run();
}

async function subscribe(t: TestTenant) {
  const res = await call("POST", "/webhooks", {
    headers: t.admin,
    body: { url: "https://receiver.example.com/bounds", events: ["*"] },
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe("webhook fan-out at any number of subscriptions", () => {
  it.each([10, 100, 1_000])(
    "makes and queues one delivery for each of %i matching subscriptions",
    async (count) => {
      const t = await createTenant();
      await manySubscriptions(t, count);
      const eventId = await storedEvent(t);
      expect(await fanOutEvent(env, t.id, eventId)).toBe(count);
      const db = await tenantDatabase(t.id);
      const made = await db
        .prepare("select count(distinct subscription_id) as n from webhook_deliveries where event_id = ?")
        .bind(eventId)
        .first<{ n: number }>();
      expect(made?.n).toBe(count);
      const event = await db
        .prepare("select processed_at from outbox_events where id = ?")
        .bind(eventId)
        .first<{ processed_at: string | null }>();
      expect(event?.processed_at).toEqual(expect.any(String));
      // A doubled hand-off makes no second delivery.
      expect(await fanOutEvent(env, t.id, eventId)).toBe(0);
    },
  );
});

describe("an event that is never fanned out", () => {
  it(`is handed off again at most ${MAX_REDISPATCHES} times, then marked failed, shown in the feed and logged`, async () => {
    const t = await createTenant();
    const lost = UNPROCESSED_MS + 60_000;
    const givenUp = await storedEvent(t, { ago: lost, handedOff: true, redispatches: MAX_REDISPATCHES });
    const again = await storedEvent(t, { ago: lost, handedOff: true, redispatches: 3 });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});

    await redispatchLost(env);
    const db = await tenantDatabase(t.id);
    const row = (id: string) =>
      db
        .prepare("select redispatches, fan_out_failed_at, processed_at from outbox_events where id = ?")
        .bind(id)
        .first<{ redispatches: number; fan_out_failed_at: string | null; processed_at: string | null }>();
    expect(await row(givenUp)).toMatchObject({
      fan_out_failed_at: expect.any(String),
      processed_at: expect.any(String),
    });
    expect(await row(again)).toMatchObject({ redispatches: 4, fan_out_failed_at: null });
    const alarms = errors.mock.calls.map(([line]) => String(line)).filter((line) => line.includes(givenUp));
    expect(alarms).toHaveLength(1);
    expect(JSON.parse(alarms[0] as string)).toMatchObject({
      level: "error",
      msg: expect.stringContaining("webhook fan-out given up"),
      tenantId: t.id,
      eventId: givenUp,
    });

    const feed = await call("GET", "/events?type=product.created", { headers: t.admin });
    const items = feed.body.data.items as { id: string; webhooksFailedAt?: string }[];
    expect(items.find((item) => item.id === givenUp)?.webhooksFailedAt).toEqual(expect.any(String));
    expect(items.find((item) => item.id === again)).not.toHaveProperty("webhooksFailedAt");

    // Given up means given up: the next run neither hands it off nor logs it again.
    errors.mockClear();
    await redispatchLost(env, new Date(Date.now() + lost));
    expect(errors.mock.calls.filter(([line]) => String(line).includes(givenUp))).toHaveLength(0);
  });
});

describe("the deliveries list", () => {
  it("shows a page of 100 deliveries with their attempts", async () => {
    const t = await createTenant();
    const id = await subscribe(t);
    await waitingDeliveries(t, id, 100);
    const res = await call("GET", `/webhooks/${id}/deliveries?pageSize=100`, { headers: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.data.items).toHaveLength(100);
    expect(res.body.data.totalCount).toBe(100);
  });
});

describe("replay", () => {
  const replay = (t: TestTenant, id: string, from: string, to: string) =>
    call("POST", `/webhooks/${id}/replay`, { headers: t.admin, body: { from, to } });

  async function productsCreated(t: TestTenant, count: number) {
    const from = new Date(Date.now() - 1000).toISOString();
    for (let i = 0; i < count; i++) await createProduct(t);
    return { from, to: new Date().toISOString() };
  }

  it("queues nothing twice when the same range is replayed while the first replay's deliveries wait", async () => {
    const t = await createTenant();
    const id = await subscribe(t);
    stubReceiver(() => new Response("down", { status: 503 })); // so the deliveries keep waiting
    const { from, to } = await productsCreated(t, 3);
    const first = await replay(t, id, from, to);
    expect(first.body.data).toMatchObject({ queued: 3, alreadyWaiting: 0 });
    const second = await replay(t, id, from, to);
    expect(second.status).toBe(202);
    expect(second.body.data).toMatchObject({ queued: 0, alreadyWaiting: 3 });
  });

  it(`refuses (409) a replay that would leave more than ${MAX_QUEUED} deliveries waiting, and says so`, async () => {
    const t = await createTenant();
    const { from, to } = await productsCreated(t, 6); // before subscribing: no live delivery of them waits
    const id = await subscribe(t);
    await waitingDeliveries(t, id, MAX_QUEUED - 5);
    const res = await replay(t, id, from, to);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain(`has ${MAX_QUEUED - 5} deliveries waiting`);
    expect(res.body.message).toContain(`at most ${MAX_QUEUED}`);
    const queued = await (await tenantDatabase(t.id))
      .prepare("select count(*) as n from webhook_deliveries where subscription_id = ? and replay_id <> ''")
      .bind(id)
      .first<{ n: number }>();
    expect(queued?.n).toBe(0);
  });

  it("lets only one of two concurrent replays past the bound", async () => {
    const t = await createTenant();
    const { from, to } = await productsCreated(t, 6); // before subscribing: no live delivery of them waits
    const id = await subscribe(t);
    await waitingDeliveries(t, id, MAX_QUEUED - 10);
    stubReceiver(() => new Response("down", { status: 503 }));
    const answers = await Promise.all([replay(t, id, from, to), replay(t, id, from, to)]);
    expect(answers.map((res) => res.status).sort()).toEqual([202, 409]);
    const waiting = await (await tenantDatabase(t.id))
      .prepare(
        "select count(*) as n from webhook_deliveries where subscription_id = ? and status = 'pending'",
      )
      .bind(id)
      .first<{ n: number }>();
    expect(waiting?.n).toBeLessThanOrEqual(MAX_QUEUED);
  });
});
