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
import { eventRow, eventRows } from "../src/outbox/outbox";
import { handOffCommittedEvents } from "../src/pipeline/hand-off-committed-events";
import { createTenant, salesOrder, stockedProduct, type TestTenant, unique } from "./support/builders";
import { tenantDatabase } from "./support/database";
import { call } from "./support/http";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const stored = async (ids: readonly string[]) =>
  (await tenantDatabase(tenant.id))
    .prepare(
      "select id, type, payload, dispatched_at from outbox_events where id in (select value from json_each(?)) order by id",
    )
    .bind(JSON.stringify(ids))
    .all<{ id: string; type: string; payload: string; dispatched_at: string | null }>()
    .then((r) => r.results);

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
