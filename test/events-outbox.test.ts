/// <reference types="vite/client" />
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import { runBatch } from "../src/db/batch";
import { dbFor } from "../src/db/client";
import { D1Stats } from "../src/db/d1-stats";
import type { AppEnv } from "../src/env";
import { eventRow, eventRows, selectedEventRows } from "../src/outbox/outbox";
import { handOffCommittedEvents } from "../src/pipeline/hand-off-committed-events";
import { createTenant, salesOrder, stockedProduct, type TestTenant, unique } from "./support/builders";
import { tenantDatabase } from "./support/database";
import { call } from "./support/http";
import { stubReceiver } from "./support/webhook-receiver";

// The writer and hand-off tests run in a tenant with a subscription to every event: an event nobody wants is
// stored done and never handed off ("events nobody subscribed to" below).
let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
  await subscribe(tenant, ["*"]);
});

async function subscribe(t: TestTenant, events: string[]) {
  const res = await call("POST", "/webhooks", {
    headers: t.admin,
    body: { url: "https://receiver.example.com/hook", events },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
}

const stored = async (ids: readonly string[], t = tenant) =>
  (await tenantDatabase(t.id))
    .prepare(
      "select id, type, payload, dispatched_at from outbox_events where id in (select value from json_each(?)) order by id",
    )
    .bind(JSON.stringify(ids))
    .all<{ id: string; type: string; payload: string; dispatched_at: string | null }>()
    .then((r) => r.results);

/** Whether each event is stored done (processed): what the dispatch sweep then leaves alone. */
const processed = async (t: TestTenant, ids: readonly string[]) =>
  (await tenantDatabase(t.id))
    .prepare(
      "select processed_at is not null as done from outbox_events where id in (select value from json_each(?)) order by id",
    )
    .bind(JSON.stringify(ids))
    .all<{ done: number }>()
    .then((r) => r.results.map((row) => row.done === 1));

describe("the outbox writer", () => {
  it("writes a guarded event only when its guard holds, and records only what committed", async () => {
    const tdb = await dbFor(env, tenant.id);
    const now = new Date().toISOString();
    const kept = eventRow(tdb, "product.updated", { id: "p-1" }, now, { onlyIf: sql`1 = 1` });
    const skipped = eventRow(tdb, "product.updated", { id: "p-2" }, now, { onlyIf: sql`1 = 0` });
    await runBatch(tdb, { kept, skipped });
    expect(await stored([...kept.eventIds, ...skipped.eventIds])).toEqual([
      { id: kept.eventIds[0], type: "product.updated", payload: '{"id":"p-1"}', dispatched_at: null },
    ]);
    expect(tdb.committedEvents).toEqual(kept.eventIds);
  });

  it("takes an SQL payload evaluated inside the batch", async () => {
    const tdb = await dbFor(env, tenant.id);
    const event = eventRow(tdb, "inventory.adjusted", sql`json_object('n', 1 + 1)`, new Date().toISOString());
    await runBatch(tdb, { event });
    expect((await stored(event.eventIds))[0]?.payload).toBe('{"n":2}');
  });

  it("writes a bulk of events in a few statements, all recorded, in order", async () => {
    const tdb = await dbFor(env, tenant.id);
    const events = Array.from({ length: 1_201 }, (_, i) => ({
      type: "product.created" as const,
      payload: { i },
    }));
    const statements = eventRows(tdb, events, new Date().toISOString());
    expect(statements).toHaveLength(3);
    await runBatch(tdb, { statements });
    const ids = statements.flatMap((s) => s.eventIds);
    const rows = await stored(ids);
    expect(rows.map((r) => JSON.parse(r.payload).i)).toEqual(events.map((_, i) => i));
    expect(tdb.committedEvents).toEqual(ids);
  });

  it("writes an event its writer delivers itself as dispatched, and never records it for hand-off", async () => {
    const tdb = await dbFor(env, tenant.id);
    const now = new Date().toISOString();
    const event = eventRow(tdb, "webhook.test", { ok: true }, now, { deliveredByWriter: true });
    await runBatch(tdb, { event });
    expect((await stored(event.eventIds))[0]?.dispatched_at).toBe(now);
    expect(tdb.committedEvents).toEqual([]);
  });

  it("records nothing when the batch fails", async () => {
    const tdb = await dbFor(env, tenant.id);
    const event = eventRow(tdb, "product.created", {}, new Date().toISOString());
    await expect(
      runBatch(tdb, { event, broken: sql`insert into no_such_table values (1)` }),
    ).rejects.toThrow();
    expect(await stored(event.eventIds)).toEqual([]);
    expect(tdb.committedEvents).toEqual([]);
  });
});

describe("events nobody subscribed to", () => {
  /** Writes one event of `type` singly, two in bulk and one selected in the batch; what was recorded for hand-off. */
  async function writeEvents(t: TestTenant, type: "product.updated" | "product.created") {
    const tdb = await dbFor(env, t.id);
    const now = new Date().toISOString();
    const single = eventRow(tdb, type, { id: "p-1" }, now);
    const bulk = eventRows(
      tdb,
      [
        { type, payload: { id: "p-2" } },
        { type, payload: { id: "p-3" } },
      ],
      now,
    );
    const selected = selectedEventRows(tdb, type, [{ n: 1 }], now, { payload: sql`json_object('n', 1)` });
    await runBatch(tdb, { single, bulk, selected });
    const ids = [single, ...bulk, ...selected].flatMap((s) => s.eventIds);
    return { ids, handedOff: tdb.committedEvents, done: await processed(t, ids) };
  }

  it("stores an event done, and hands nothing off, in a tenant without subscriptions", async () => {
    const t = await createTenant();
    const written = await writeEvents(t, "product.updated");
    expect(written.handedOff).toEqual([]);
    expect(written.done).toEqual([true, true, true, true]);
  });

  it("stores done an event only inactive subscriptions or other types' want, and hands off one a subscription wants", async () => {
    const t = await createTenant();
    const inactive = await subscribe(t, ["*"]);
    const paused = await call("PUT", `/webhooks/${inactive.id}`, {
      headers: t.admin,
      body: { url: "https://receiver.example.com/hook", events: ["*"], active: false },
    });
    expect(paused.status).toBe(200);
    await subscribe(t, ["product.created"]);
    const unwanted = await writeEvents(t, "product.updated");
    expect(unwanted.handedOff).toEqual([]);
    expect(unwanted.done).toEqual([true, true, true, true]);

    const wanted = await writeEvents(t, "product.created");
    expect(wanted.handedOff).toEqual(wanted.ids);
    expect(wanted.done).toEqual([false, false, false, false]);
  });

  it("hands off a change's event once a subscription exists, through a real request", async () => {
    const t = await createTenant();
    const before = await call("POST", "/products", {
      headers: t.admin,
      body: { sku: `N-${unique()}`, name: "n", price: 1 },
    });
    const [first] = await outboxOf(t);
    expect(first).toMatchObject({ type: "product.created", done: 1 });

    const { received } = stubReceiver();
    await subscribe(t, ["product.created"]);
    await call("POST", "/products", {
      headers: t.admin,
      body: { sku: `N-${unique()}`, name: "n", price: 1 },
    });
    await expect.poll(() => received.length).toBe(1);
    expect(JSON.parse(received[0]?.body ?? "{}").data.id).not.toBe(before.body.data.id);
  });
});

/** A tenant's product.created events, oldest first, and whether each is done. */
const outboxOf = async (t: TestTenant) =>
  (await tenantDatabase(t.id))
    .prepare(
      "select type, processed_at is not null as done from outbox_events where type = 'product.created' order by seq",
    )
    .all<{ type: string; done: number }>()
    .then((r) => r.results);

describe("the merchant stamp", () => {
  /** The rows read by writing `payloads` as events, and the merchant each was stamped with. */
  async function written(payloads: object[]) {
    const stats = new D1Stats();
    const tdb = await dbFor(env, tenant.id, stats);
    const now = new Date().toISOString();
    const single = eventRow(tdb, "inventory.adjusted", payloads[0], now);
    const bulk = eventRows(
      tdb,
      payloads.map((payload) => ({ type: "inventory.adjusted" as const, payload })),
      now,
    );
    await runBatch(tdb, { single, bulk });
    const ids = [...single.eventIds, ...bulk.flatMap((s) => s.eventIds)];
    const stamps = await (await tenantDatabase(tenant.id))
      .prepare(
        "select merchant_id from outbox_events where id in (select value from json_each(?)) order by id",
      )
      .bind(JSON.stringify(ids))
      .all<{ merchant_id: string | null }>();
    return { rowsRead: stats.rowsRead, merchants: stamps.results.map((r) => r.merchant_id) };
  }

  it("costs a tenant without merchants no read of a product or an order, and stamps its merchant once it has one", async () => {
    const { productId } = await stockedProduct(tenant, 5);
    const orderId = (await salesOrder(tenant, [{ productId, quantity: 1 }])).body.data.id;
    const about = Array.from({ length: 50 }, () => ({ productId, orderId }));
    const aboutNothing = Array.from({ length: 50 }, () => ({ note: "x" }));
    const plain = await written(about);
    expect(plain.merchants).toEqual(Array(51).fill(null));
    expect(plain.rowsRead).toBe((await written(aboutNothing)).rowsRead);

    const merchant = await call("POST", "/merchants", {
      headers: tenant.admin,
      body: { code: `M-${unique()}`, name: "Acme" },
    });
    const owned = await stockedProduct(tenant, 5, { product: { merchantId: merchant.body.data.id } });
    const ownedOrder = (await salesOrder(tenant, [{ productId: owned.productId, quantity: 1 }])).body.data.id;
    const stamped = await written([
      { productId: owned.productId },
      { orderId: ownedOrder },
      { productId },
      { note: "x" },
    ]);
    const m = merchant.body.data.id;
    expect(stamped.merchants).toEqual([m, m, m, null, null]);
  });
});

describe("the automatic hand-off", () => {
  // A route as the app builds one: the tenant's handle, then the hand-off around the handler.
  const app = new Hono<AppEnv>()
    .use(async (c, next) => {
      c.set("tenantDb", await dbFor(c.env, tenant.id));
      await next();
    })
    .use(handOffCommittedEvents)
    .post("/write/:status", async (c) => {
      const tdb = c.var.tenantDb;
      const event = eventRow(tdb, "product.created", { via: "test" }, new Date().toISOString());
      await runBatch(tdb, { event });
      return c.json({ eventIds: event.eventIds }, Number(c.req.param("status")) as 201);
    });

  async function write(status: number) {
    const ctx = createExecutionContext();
    const response = await app.fetch(
      new Request(`http://test/write/${status}`, { method: "POST" }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return ((await response.json()) as { eventIds: string[] }).eventIds;
  }

  it("hands a successful request's committed events to the webhooks and marks them dispatched", async () => {
    const ids = await write(201);
    expect((await stored(ids))[0]?.dispatched_at).toEqual(expect.any(String));
  });

  it("hands off nothing for a failed response: the cron sweep picks the event up", async () => {
    const ids = await write(500);
    expect((await stored(ids))[0]?.dispatched_at).toBeNull();
  });
});

describe("one way to write events", () => {
  const sources = import.meta.glob<string>("../src/**/*.ts", {
    query: "?raw",
    import: "default",
    eager: true,
  });

  it("has exactly one file inserting outbox rows", () => {
    const writers = Object.entries(sources)
      .filter(
        ([, text]) =>
          /insert\s+into\s+outbox_events/i.test(text) || /insert(Select)?\(\s*outboxEvents\b/.test(text),
      )
      .map(([path]) => path);
    expect(writers).toEqual(["../src/outbox/outbox.ts"]);
  });

  it("has no route handling event ids or handing events off itself", () => {
    const routes = Object.entries(sources).filter(([path]) => path.endsWith("/routes.ts"));
    expect(routes.length).toBeGreaterThan(5);
    for (const [path, text] of routes)
      expect({ path, mentions: /eventIds|handOff/.test(text) }).toEqual({ path, mentions: false });
  });
});
