import { env } from "cloudflare:workers";
import { assert, beforeAll, describe, expect, it } from "vitest";
import { deliver } from "../src/webhook-delivery/deliver";
import { adjustStock, createTenant, scopedKey, stockedProduct, type TestTenant } from "./support/builders";
import { outboxEvents, tenantDatabase } from "./support/database";
import { call } from "./support/http";
import { stubReceiver } from "./support/webhook-receiver";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

async function subscribe(t: TestTenant, events: string[]) {
  const res = await call("POST", "/webhooks", {
    headers: t.admin,
    body: { url: "https://receiver.example.com/replay", events },
  });
  return res.body.data.id;
}

const replay = (t: TestTenant, id: string, body: Record<string, unknown>, headers = t.admin) =>
  call("POST", `/webhooks/${id}/replay`, { headers, body });

/** The deliveries a replay made, attempted now (the queue would do the same). */
async function deliverReplay(t: TestTenant, replayId: string) {
  const { results } = await (await tenantDatabase(t.id))
    .prepare("select id, event_id as eventId from webhook_deliveries where replay_id = ? order by event_id")
    .bind(replayId)
    .all<{ id: string; eventId: string }>();
  for (const delivery of results) await deliver(env, t.id, delivery.id);
  return results;
}

describe("webhook replay", () => {
  it("delivers every stored event of the range again, with the same webhook-id, as new deliveries", async () => {
    const t = await createTenant();
    const id = await subscribe(t, ["inventory.adjusted"]);
    const { received } = stubReceiver();
    const from = new Date().toISOString();
    const { productId, locationId } = await stockedProduct(t, 1);
    await adjustStock(t, productId, locationId, 2);
    const to = new Date().toISOString();
    await adjustStock(t, productId, locationId, 3);
    const inRange = (await outboxEvents(t, /^inventory\.adjusted$/)).slice(0, 2).map((event) => event.id);
    // The three live deliveries first, so what arrives after is the replay's.
    await expect.poll(() => received.length, { timeout: 5000 }).toBe(3);
    const live = received.length;

    const res = await replay(t, id, { from, to });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ queued: 2, replayId: expect.any(String) });
    const { replayId } = res.body.data;
    assert(replayId, "a replay that queued deliveries has an id");
    const deliveries = await deliverReplay(t, replayId);
    expect(deliveries.map((d) => d.eventId).sort()).toEqual([...inRange].sort());
    expect(received.slice(live).map((r) => r.headers["webhook-id"])).toEqual(expect.arrayContaining(inRange));
    const states = await (await tenantDatabase(t.id))
      .prepare("select status from webhook_deliveries where replay_id = ?")
      .bind(res.body.data.replayId)
      .all<{ status: string }>();
    expect(states.results.map((r) => r.status)).toEqual(["succeeded", "succeeded"]);
    // The replay's deliveries are listed, marked as such.
    const listed = await call("GET", `/webhooks/${id}/deliveries`, { headers: t.admin });
    const replayed = listed.body.data.items.filter(
      (d: { replayId: string | null }) => d.replayId === res.body.data.replayId,
    );
    expect(replayed).toHaveLength(2);
    // A second replay of the same range makes new deliveries again.
    const again = await replay(t, id, { from, to });
    expect(again.body.data.queued).toBe(2);
    expect(again.body.data.replayId).not.toBe(res.body.data.replayId);
  });

  it("replays only what the subscription matches, narrowed by types", async () => {
    const t = await createTenant();
    const events = ["product.created", "inventory.adjusted"];
    // A subscription for each replay: a replay leaves out what an earlier one still has waiting.
    const [forAll, forNarrowed, forNone] = [
      await subscribe(t, events),
      await subscribe(t, events),
      await subscribe(t, events),
    ];
    stubReceiver();
    const from = new Date(Date.now() - 1000).toISOString();
    await stockedProduct(t, 1);
    const to = new Date().toISOString();
    const all = await replay(t, forAll, { from, to });
    expect(all.body.data.queued).toBe(2);
    const narrowed = await replay(t, forNarrowed, { from, to, types: ["product.created", "order.created"] });
    expect(narrowed.body.data.queued).toBe(1);
    const none = await replay(t, forNone, { from, to, types: ["order.created"] });
    expect(none.body.data).toEqual({ replayId: null, queued: 0, alreadyWaiting: 0 });
  });

  it("sends a merchant's subscription only its merchant's events, even when the tenant's admin replays", async () => {
    const t = await createTenant();
    const merchant = async (code: string) =>
      (await call("POST", "/merchants", { headers: t.admin, body: { code, name: code } })).body.data
        .id as string;
    const [ma, mb] = [await merchant("A"), await merchant("B")];
    const key = await call("POST", "/api-keys", {
      headers: t.admin,
      body: { name: "A's admin", scopes: ["admin"], merchantId: ma },
    });
    const asA = { "x-api-key": key.body.data.key };
    const hook = await call("POST", "/webhooks", {
      headers: asA,
      body: { url: "https://receiver.example.com/merchant-a", events: ["*"] },
    });
    expect(hook.status).toBe(201);
    stubReceiver();
    const from = new Date(Date.now() - 1000).toISOString();
    const own = await stockedProduct(t, 1, { product: { merchantId: ma } });
    // B's and the tenant's own goods move in the same range.
    await stockedProduct(t, 1, { product: { merchantId: mb } });
    await stockedProduct(t, 1);
    const to = new Date().toISOString();
    const ownEvents = (await outboxEvents(t, /./))
      .filter((event) => JSON.stringify(event.payload).includes(own.productId))
      .map((event) => event.id);
    expect(ownEvents).toHaveLength(2); // its product.created and inventory.adjusted

    for (const headers of [t.admin, asA]) {
      const res = await replay(t, hook.body.data.id, { from, to }, headers);
      expect(res.status).toBe(202);
      const { replayId } = res.body.data;
      assert(replayId, "A's events were replayed");
      const deliveries = await deliverReplay(t, replayId);
      expect(deliveries.map((d) => d.eventId).sort()).toEqual([...ownEvents].sort());
    }
  });

  it("validates the range, and needs admin (401, 403) and the tenant's own subscription (404)", async () => {
    const id = await subscribe(tenant, ["*"]);
    const now = new Date().toISOString();
    const backwards = await replay(tenant, id, { from: now, to: new Date(Date.now() - 1000).toISOString() });
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors).toEqual(["to: must not be before from"]);
    expect((await replay(tenant, id, { from: now, to: now, types: ["nope"] })).status).toBe(400);
    expect((await call("POST", `/webhooks/${id}/replay`, { body: { from: now, to: now } })).status).toBe(401);
    const writer = await scopedKey(tenant, ["write:inventory", "write:orders", "write:products"]);
    expect((await replay(tenant, id, { from: now, to: now }, writer)).status).toBe(403);
    const other = await createTenant();
    expect((await replay(other, id, { from: now, to: now })).status).toBe(404);
  });
});
