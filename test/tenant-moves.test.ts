import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { CHUNK, copyChunk, deleteTenantRows, installMoveTriggers, verifyCopy } from "../src/db/moves/steps";
import { movedTables } from "../src/db/moves/tables";
import { shardDatabase } from "../src/db/shards";
import worker from "../src/index";
import { createTenant, PLATFORM, salesOrder, stockedProduct, type TestTenant } from "./support/builders";
import { levelsWithLedger } from "./support/database";
import { call } from "./support/http";
import { stubReceiver } from "./support/webhook-receiver";

// Online tenant moves (docs/decisions/scale-out.md): a TenantMover Durable Object copies the tenant to
// another shard on alarms while it keeps working, fences its writes for the last changes and the
// verification, switches the directory and deletes the old copy.

interface Move {
  id: string;
  status: string;
  reason: string | null;
  fromShard: string;
  toShard: string;
  rowsCopied: number;
}

async function finished(moveId: string): Promise<Move> {
  for (let i = 0; i < 800; i++) {
    const move = (await call("GET", `/platform/moves/${moveId}`, { headers: PLATFORM })).body.data as Move;
    if (move.status === "done" || move.status === "failed") return move;
    await scheduler.wait(25);
  }
  const move = await call("GET", `/platform/moves/${moveId}`, { headers: PLATFORM });
  throw new Error(`move ${moveId} did not finish: ${JSON.stringify(move.body.data)}`);
}

/** The tenant's row count of every tenant table on `shard`. */
async function rowsOn(shard: string, tenantId: string): Promise<Record<string, number>> {
  const database = shardDatabase(env, shard);
  const results = await database.batch<{ n: number }>(
    movedTables.map((t) =>
      database.prepare(`select count(*) as n from "${t.name}" where tenant_id = ?`).bind(tenantId),
    ),
  );
  return Object.fromEntries(movedTables.map((t, i) => [t.name, results[i]?.results[0]?.n ?? 0]));
}

const nothing = Object.fromEntries(movedTables.map((t) => [t.name, 0]));

async function shardOf(tenantId: string): Promise<string> {
  const listed = await call("GET", "/platform/tenants?pageSize=100&sort=-createdAt", { headers: PLATFORM });
  const tenant = listed.body.data.items.find((t) => t.id === tenantId);
  if (!tenant) throw new Error(`tenant ${tenantId} is not listed`);
  return tenant.shard;
}

/** A tenant on SHARD_0 with stock, an order, outbox events, a webhook delivery and an idempotent write. */
async function tenantWithData() {
  const tenant = await createTenant({ shard: "SHARD_0" });
  const subscription = await call("POST", "/webhooks", {
    headers: tenant.admin,
    body: { url: "https://shop.example.com/orders", events: ["order.created"] },
  });
  stubReceiver();
  const stock = await stockedProduct(tenant, 100);
  // The order carries every optional field a column holds (customer name, the full ship-to), which the copy keeps.
  const order = await salesOrder(tenant, [{ productId: stock.productId, quantity: 3 }], {
    customerName: "Ada Lovelace",
    shippingAddress: {
      name: "Ada Lovelace",
      company: "Analytical Engines Ltd",
      street: "12 Marylebone Rd",
      street2: "Flat 3",
      city: "London",
      zip: "NW1 5LR",
      state: "Greater London",
      countryCode: "GB",
      phone: "+44 20 7946 0000",
      email: "ada@example.com",
    },
    notes: "Leave with the porter",
  });
  expect(order.status).toBe(201);
  const settings = await call("PATCH", "/settings", { headers: tenant.admin, body: { currency: "GBP" } });
  expect(settings.status).toBe(200);
  // Wait for the attempt to be recorded, not only received: the recording writes rows the move counts.
  const recorded = async () =>
    (
      await call("GET", `/webhooks/${subscription.body.data.id}/deliveries?status=succeeded`, {
        headers: tenant.admin,
      })
    ).body.data.totalCount;
  await expect.poll(recorded, { timeout: 5000 }).toBe(1);
  const idempotent = await adjust(tenant, stock, "before-the-move");
  expect(idempotent.status).toBe(201);
  const orderBefore = (await call("GET", `/orders/${order.body.data.id}`, { headers: tenant.admin })).body
    .data;
  return { tenant, stock, idempotent, orderBefore };
}

function adjust(tenant: TestTenant, stock: { productId: string; locationId: string }, key: string) {
  return call("POST", "/inventory/adjustments", {
    headers: { ...tenant.admin, "idempotency-key": key },
    body: {
      productId: stock.productId,
      locationId: stock.locationId,
      quantity: 1,
      reason: "count",
      notes: key,
    },
  });
}

describe("online tenant moves", () => {
  it("move every tenant table the shards hold", async () => {
    const { results } = await shardDatabase(env, "SHARD_0")
      .prepare("select name from sqlite_master where type = 'table' and sql like '%`tenant_id`%'")
      .all<{ name: string }>();
    const tables = results
      .map((r) => r.name)
      .filter((name) => !["moving_tenants", "tenant_changes"].includes(name));
    expect(movedTables.map((t) => t.name).sort()).toEqual(tables.sort());
  });

  it("moves a tenant with its data while it keeps writing: each write lands once on the new shard or gets 503", async () => {
    const { tenant, stock, idempotent, orderBefore } = await tenantWithData();
    const before = await rowsOn("SHARD_0", tenant.id);

    const started = await call("POST", `/platform/tenants/${tenant.id}/move`, {
      headers: PLATFORM,
      body: { shard: "SHARD_1" },
    });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({
      tenantId: tenant.id,
      fromShard: "SHARD_0",
      toShard: "SHARD_1",
      status: "copying",
    });
    expect(started.headers.get("location")).toBe(`/api/v1/platform/moves/${started.body.data.id}`);

    // Three writers and a reader keep going until the move has finished.
    let moving = true;
    const outcomes: { key: string; status: number; retryAfter: string | null }[] = [];
    let reads = 0;
    const writer = async (w: number) => {
      for (let i = 0; moving; i++) {
        const key = `during-${w}-${i}`;
        const response = await adjust(tenant, stock, key);
        outcomes.push({ key, status: response.status, retryAfter: response.headers.get("retry-after") });
        await scheduler.wait(10);
      }
    };
    const reader = async () => {
      while (moving) {
        const response = await call("GET", `/products/${stock.productId}`, { headers: tenant.admin });
        expect(response.status).toBe(200);
        reads++;
        await scheduler.wait(10);
      }
    };
    const running = [writer(1), writer(2), writer(3), reader()];
    const move = await finished(started.body.data.id).finally(() => {
      moving = false;
    });
    await Promise.all(running);

    expect(move).toMatchObject({ status: "done", reason: null });
    expect(move.rowsCopied).toBeGreaterThan(0);
    expect(await shardOf(tenant.id)).toBe("SHARD_1");
    expect(reads).toBeGreaterThan(0);

    expect(outcomes.length).toBeGreaterThan(0);
    for (const outcome of outcomes) {
      expect([201, 503]).toContain(outcome.status);
      if (outcome.status === 503) expect(outcome.retryAfter).toBe("1");
    }
    const landed = outcomes
      .filter((o) => o.status === 201)
      .map((o) => o.key)
      .sort();
    const { results: movements } = await shardDatabase(env, "SHARD_1")
      .prepare(
        "select notes from stock_movements where tenant_id = ? and notes like 'during-%' order by notes",
      )
      .bind(tenant.id)
      .all<{ notes: string }>();
    expect(movements.map((m) => m.notes)).toEqual(landed);

    // The old copy is gone and nothing else was lost: every table holds at least what it held before.
    expect(await rowsOn("SHARD_0", tenant.id)).toEqual(nothing);
    const after = await rowsOn("SHARD_1", tenant.id);
    for (const [table, n] of Object.entries(before)) expect(after[table], table).toBeGreaterThanOrEqual(n);
    expect(after.stock_movements).toBe((before.stock_movements ?? 0) + landed.length);
    const levels = await levelsWithLedger(tenant);
    for (const level of levels) expect(level.onHand).toBe(level.ledger);
    expect(levels.find((l) => l.productId === stock.productId)?.onHand).toBe(101 + landed.length);

    // The order reads back from the new shard as it was, its customer name and ship-to included.
    const orderAfter = await call("GET", `/orders/${orderBefore.id}`, { headers: tenant.admin });
    expect(orderAfter.body.data).toEqual(orderBefore);
    expect(orderAfter.body.data).toMatchObject({
      customerName: "Ada Lovelace",
      shippingAddress: { name: "Ada Lovelace", state: "Greater London", countryCode: "GB" },
    });

    expect((await call("GET", "/settings", { headers: tenant.admin })).body.data.currency).toBe("GBP");

    // An idempotent request made before the move replays from the new shard; the tenant writes there now.
    const replay = await adjust(tenant, stock, "before-the-move");
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data).toEqual(idempotent.body.data);
    expect((await adjust(tenant, stock, "after-the-move")).status).toBe(201);
  });

  it("fences the old shard for good: a write that still holds the old placement can never land there", async () => {
    const { tenant, stock } = await tenantWithData();
    const started = await call("POST", `/platform/tenants/${tenant.id}/move`, {
      headers: PLATFORM,
      body: { shard: "SHARD_1" },
    });
    expect((await finished(started.body.data.id)).status).toBe("done");
    const stale = shardDatabase(env, "SHARD_0")
      .prepare(
        `insert into stock_movements (id, tenant_id, product_id, location_id, warehouse_id, delta, on_hand_after,
          reason, actor_type, created_at) values (?, ?, ?, ?, ?, 1, 1, 'stale', 'system', '2026-01-01')`,
      )
      .bind(crypto.randomUUID(), tenant.id, stock.productId, stock.locationId, stock.warehouseId)
      .run();
    await expect(stale).rejects.toThrow(/tenant_fenced/);
  });

  it("answers a write to a fenced tenant 503 with Retry-After and changes nothing; reads still work", async () => {
    const tenant = await createTenant({ shard: "SHARD_0" });
    const stock = await stockedProduct(tenant, 5);
    const before = await rowsOn("SHARD_0", tenant.id);
    // What a move sets once its copy has caught up (src/db/moves/steps.ts).
    const source = shardDatabase(env, "SHARD_0");
    await installMoveTriggers(source);
    await source
      .prepare("insert into moving_tenants (tenant_id, stage) values (?, 'fenced')")
      .bind(tenant.id)
      .run();

    const refused = await adjust(tenant, stock, "while-fenced");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    const read = await call("GET", `/products/${stock.productId}`, { headers: tenant.admin });
    expect(read.status).toBe(200);
    expect((await rowsOn("SHARD_0", tenant.id)).stock_movements).toBe(before.stock_movements);
    expect((await rowsOn("SHARD_0", tenant.id)).idempotency_keys).toBe(before.idempotency_keys);

    await source.prepare("delete from moving_tenants where tenant_id = ?").bind(tenant.id).run();
    expect((await adjust(tenant, stock, "while-fenced")).status).toBe(201);
  });

  it("fans out an event whose queue message names the shard the tenant moved from, on its new shard, once", async () => {
    const tenant = await createTenant({ shard: "SHARD_0" });
    const subscribed = await call("POST", "/webhooks", {
      headers: tenant.admin,
      body: { url: "https://erp.example.com/moved", events: ["product.updated"] },
    });
    expect(subscribed.status).toBe(201);
    const started = await call("POST", `/platform/tenants/${tenant.id}/move`, {
      headers: PLATFORM,
      body: { shard: "SHARD_1" },
    });
    expect((await finished(started.body.data.id)).status).toBe("done");
    // An event committed on the new shard whose message was handed off while the tenant was still on the old
    // one (handed off, so the sweep leaves it alone): the message names SHARD_0.
    const eventId = crypto.randomUUID();
    const now = new Date().toISOString();
    const [target, source] = [shardDatabase(env, "SHARD_1"), shardDatabase(env, "SHARD_0")];
    await target
      .prepare(
        `insert into outbox_events (id, tenant_id, type, payload, created_at, dispatched_at, seq) values (?1, ?2, 'product.updated', '{}', ?3, ?3,
          (select coalesce(max(seq), 0) + 1 from outbox_events where tenant_id = ?2))`,
      )
      .bind(eventId, tenant.id, now)
      .run();
    const consume = async (attempts: number) => {
      const batch = createMessageBatch("webhook-deliveries", [
        {
          id: `m${attempts}`,
          timestamp: new Date(),
          attempts,
          body: { kind: "event", tenantId: tenant.id, eventId, shard: "SHARD_0" },
        },
      ]);
      const ctx = createExecutionContext();
      await worker.queue(batch as never, env);
      return getQueueResult(batch, ctx);
    };
    const deliveries = async (database: D1Database) =>
      (
        await database
          .prepare("select count(*) as n from webhook_deliveries where event_id = ?")
          .bind(eventId)
          .first<{ n: number }>()
      )?.n;
    const processedAt = () =>
      target
        .prepare("select processed_at from outbox_events where id = ?")
        .bind(eventId)
        .first<string>("processed_at");
    stubReceiver();

    // Between the switch and the deletion the old shard still holds a copy, fenced: the fan-out's writes
    // there are refused and the message is retried; a retry asks the directory.
    const copyOf = async (table: string, id: string) => {
      const row = (await target.prepare(`select * from ${table} where id = ?`).bind(id).first()) as Record<
        string,
        unknown
      >;
      const columns = Object.keys(row);
      return source
        .prepare(`insert into ${table} (${columns.join(", ")}) values (${columns.map(() => "?").join(", ")})`)
        .bind(...Object.values(row));
    };
    await source.prepare("delete from moving_tenants where tenant_id = ?").bind(tenant.id).run();
    await source.batch([
      await copyOf("outbox_events", eventId),
      await copyOf("webhook_subscriptions", subscribed.body.data.id),
      source.prepare("insert into moving_tenants (tenant_id, stage) values (?, 'deleting')").bind(tenant.id),
    ]);
    const first = await consume(1);
    expect(first.explicitAcks).toEqual([]);
    expect(first.retryMessages.map((m) => m.msgId)).toEqual(["m1"]);
    expect(await deliveries(source)).toBe(0);
    const retried = await consume(2);
    expect(retried.explicitAcks).toEqual(["m2"]);
    expect(await deliveries(target)).toBe(1);
    expect(await processedAt()).toEqual(expect.any(String));

    // Once the old copy is gone (the mover deletes it, then leaves the fence), the event is not found there
    // and the directory is asked at once.
    await source.batch([
      ...["outbox_events", "webhook_subscriptions"].map((table) =>
        source.prepare(`delete from ${table} where tenant_id = ?`).bind(tenant.id),
      ),
      source.prepare("update moving_tenants set stage = 'fenced' where tenant_id = ?").bind(tenant.id),
    ]);
    await target.prepare("update outbox_events set processed_at = null where id = ?").bind(eventId).run();
    expect((await consume(1)).explicitAcks).toEqual(["m1"]);
    expect(await processedAt()).toEqual(expect.any(String));
    expect(await deliveries(target)).toBe(1);
  });

  it.each(["copying", "verifying"])(
    "leaves the tenant intact where it was when the move fails while %s (fault injected)",
    async (phase) => {
      const { tenant, stock } = await tenantWithData();
      const before = await rowsOn("SHARD_0", tenant.id);
      const ledger = await levelsWithLedger(tenant);
      const app = createApp();
      const ctx = createExecutionContext();
      const response = await app.fetch(
        new Request(`http://localhost/api/v1/platform/tenants/${tenant.id}/move`, {
          method: "POST",
          headers: { ...PLATFORM, "content-type": "application/json", "x-fault-inject": `move=${phase}` },
          body: JSON.stringify({ shard: "SHARD_1" }),
        }),
        { ...env, FAULT_INJECTION: "on" },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(response.status).toBe(202);
      const move = await finished(((await response.json()) as { data: Move }).data.id);

      expect(move.status).toBe("failed");
      expect(move.reason).toMatch(
        phase === "verifying" ? /verification failed: .*stock_movements/ : /injected/,
      );
      expect(await shardOf(tenant.id)).toBe("SHARD_0");
      expect(await rowsOn("SHARD_0", tenant.id)).toEqual(before);
      expect(await rowsOn("SHARD_1", tenant.id)).toEqual(nothing);
      expect(await levelsWithLedger(tenant)).toEqual(ledger);
      expect((await adjust(tenant, stock, "after-the-failed-move")).status).toBe(201);
      // And the tenant can move after all.
      const again = await call("POST", `/platform/tenants/${tenant.id}/move`, {
        headers: PLATFORM,
        body: { shard: "SHARD_1" },
      });
      expect((await finished(again.body.data.id)).status).toBe("done");
    },
  );

  it("verifies a copy table by table: a copy short of one ledger row names that table and both counts", async () => {
    const tenant = await createTenant({ shard: "SHARD_0" });
    const stock = await stockedProduct(tenant, 5);
    expect((await adjust(tenant, stock, "second-ledger-row")).status).toBe(201);
    const [source, target] = [shardDatabase(env, "SHARD_0"), shardDatabase(env, "SHARD_1")];
    for (const table of movedTables.filter((t) => t.copied)) {
      let step = { cursor: 0, rows: CHUNK };
      while (step.rows === CHUNK) step = await copyChunk(source, target, tenant.id, table, step.cursor);
    }
    expect(await verifyCopy(source, target, tenant.id)).toBeUndefined();

    await target
      .prepare(
        "delete from stock_movements where rowid = (select max(rowid) from stock_movements where tenant_id = ?1)",
      )
      .bind(tenant.id)
      .run();
    expect(await verifyCopy(source, target, tenant.id)).toBe(
      "stock_movements: 2 rows on the source, 1 on the copy",
    );
    await deleteTenantRows(target, tenant.id, Number.POSITIVE_INFINITY);
  });

  it("refuses a move without the platform token (401), of an unknown tenant (404), to an unknown shard (400), to the tenant's own shard (409), or a second one at once (409)", async () => {
    const tenant = await createTenant({ shard: "SHARD_0" });
    const path = `/platform/tenants/${tenant.id}/move`;
    expect((await call("POST", path, { headers: tenant.admin, body: { shard: "SHARD_1" } })).status).toBe(
      401,
    );
    expect(
      (
        await call("POST", `/platform/tenants/${crypto.randomUUID()}/move`, {
          headers: PLATFORM,
          body: { shard: "SHARD_1" },
        })
      ).status,
    ).toBe(404);
    expect((await call("POST", path, { headers: PLATFORM, body: { shard: "SHARD_9" } })).status).toBe(400);
    expect((await call("POST", path, { headers: PLATFORM, body: { shard: "SHARD_0" } })).status).toBe(409);
    const first = await call<"POST", string, Move>("POST", path, {
      headers: PLATFORM,
      body: { shard: "SHARD_1" },
    });
    expect(first.status).toBe(202);
    expect((await call("POST", path, { headers: PLATFORM, body: { shard: "SHARD_1" } })).status).toBe(409);
    await finished(first.body.data.id);
    expect((await call("GET", `/platform/moves/${crypto.randomUUID()}`, { headers: PLATFORM })).status).toBe(
      404,
    );
    expect(
      (await call("GET", `/platform/moves/${first.body.data.id}`, { headers: tenant.admin })).status,
    ).toBe(401);
  });
});
