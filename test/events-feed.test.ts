import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { sweepOldEvents } from "../src/outbox/retention";
import { deliver } from "../src/webhook-delivery/deliver";
import { fanOutEvent } from "../src/webhook-delivery/fan-out";
import { adjustStock, createTenant, scopedKey, stockedProduct, type TestTenant } from "./support/builders";
import { outboxEvents, tenantDatabase } from "./support/database";
import { call } from "./support/http";
import { stubReceiver } from "./support/webhook-receiver";

interface FeedItem {
  id: string;
  type: string;
  timestamp: string;
  data?: unknown;
}

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const feed = (query: `?${string}`, headers = tenant.admin) => call("GET", `/events${query}`, { headers });

/** Reads the feed from `cursor` until it says nothing more is waiting; returns the items and the last cursor. */
async function drain(cursor: string | undefined, headers = tenant.admin, extra = "", limit = 7) {
  const items: FeedItem[] = [];
  let after = cursor;
  for (;;) {
    const res = await feed(`?limit=${limit}${after ? `&after=${after}` : ""}${extra}`, headers);
    expect(res.status).toBe(200);
    items.push(...res.body.data.items);
    after = res.body.data.nextCursor;
    if (!res.body.data.hasMore) return { items, cursor: after as string };
  }
}

describe("events feed", () => {
  it("gives a reader paging during 200 concurrent writes every event exactly once, in commit order", async () => {
    const t = await createTenant();
    const { productId, locationId } = await stockedProduct(t, 1);
    const start = await drain(undefined, t.admin);
    let writing = true;
    const writes = Promise.all(
      Array.from({ length: 200 }, () => adjustStock(t, productId, locationId, 1)),
    ).finally(() => {
      writing = false;
    });
    const seen: FeedItem[] = [];
    let cursor = start.cursor;
    while (writing) {
      const page = await drain(cursor, t.admin, "&type=inventory.adjusted");
      seen.push(...page.items);
      cursor = page.cursor;
    }
    await writes;
    seen.push(...(await drain(cursor, t.admin, "&type=inventory.adjusted")).items);

    const ids = seen.map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(200);
    // Commit order: each +1 adjustment saw the level one higher than the one committed before it.
    const onHand = (item: FeedItem) => (item.data as { stockLevel: { onHand: number } }).stockLevel.onHand;
    expect(seen.map(onHand)).toEqual(Array.from({ length: 200 }, (_, i) => i + 2));
    const stored = await outboxEvents(t, /^inventory\.adjusted$/);
    expect(ids).toEqual(stored.slice(1).map((event) => event.id));
  });

  it("serves exactly what the webhook delivered: same id as webhook-id, same type, timestamp and data", async () => {
    const t = await createTenant();
    await call("POST", "/webhooks", {
      headers: t.admin,
      body: { url: "https://receiver.example.com/feed", events: ["inventory.adjusted"] },
    });
    const { received } = stubReceiver();
    const { productId, locationId } = await stockedProduct(t, 3);
    const [item] = (await drain(undefined, t.admin, "&type=inventory.adjusted")).items;
    if (!item) throw new Error("no inventory.adjusted event in the feed");
    await fanOutEvent(env, t.id, item.id);
    const delivery = await (await tenantDatabase(t.id))
      .prepare("select id from webhook_deliveries where event_id = ?")
      .bind(item.id)
      .first<{ id: string }>();
    await deliver(env, t.id, delivery?.id as string);
    const sent = received.find((r) => r.headers["webhook-id"] === item.id);
    expect(sent).toBeDefined();
    const { id, ...body } = item;
    expect(JSON.parse(sent?.body as string)).toEqual(body);
    expect(item.data).toMatchObject({ productId, stockLevel: { locationId, onHand: 3 } });
  });

  it("filters by type names and families, and by the caller's read scopes", async () => {
    const t = await createTenant();
    const { productId } = await stockedProduct(t, 2);
    await call("POST", "/orders/sales", {
      headers: t.admin,
      body: {
        customerId: crypto.randomUUID(),
        lines: [{ productId, quantity: 1, price: 1 }],
        shippingAddress: { street: "1 Main St", city: "Springfield", zip: "12345" },
      },
    });
    const all = (await drain(undefined, t.admin)).items.map((item) => item.type);
    expect(all).toEqual(expect.arrayContaining(["product.created", "inventory.adjusted", "order.created"]));
    const families = (await drain(undefined, t.admin, "&type=order.*,product.created")).items;
    expect(new Set(families.map((item) => item.type))).toEqual(new Set(["order.created", "product.created"]));

    const inventoryReader = await scopedKey(t, ["read:inventory"]);
    const seen = (await drain(undefined, inventoryReader)).items.map((item) => item.type);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((type) => type.startsWith("inventory."))).toBe(true);
    const refused = await feed("?type=order.created", inventoryReader);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("These event types need the read:orders scope");
    expect((await feed("?type=order.nope")).status).toBe(400);
    expect((await feed("?after=not-a-cursor")).status).toBe(400);
    expect((await feed("?limit=501")).status).toBe(400);
  });

  it("refuses a forged cursor past the last event or past 2^53 (400), and takes back every nextCursor it gives", async () => {
    const t = await createTenant();
    await stockedProduct(t, 1);
    const forged = (seq: string) => `evc1_${btoa(seq).replace(/=+$/, "")}`;
    const last = (await drain(undefined, t.admin)).cursor;
    // The largest cursor a reader can be given is its tenant's last event; one past it was never issued.
    const lastSeq = Number(atob(last.slice("evc1_".length)));
    for (const seq of [String(lastSeq + 1), "9007199254740992", "9999999999999999"]) {
      const res = await feed(`?after=${forged(seq)}`, t.admin);
      expect(res.status, seq).toBe(400);
      expect(res.body.errors, seq).toEqual([
        "after: not a cursor issued by this API (use nextCursor as given)",
      ]);
    }
    const page = await feed(`?after=${last}`, t.admin);
    expect(page.status).toBe(200);
    expect((await feed(`?after=${page.body.data.nextCursor}`, t.admin)).status).toBe(200);
  });

  it("answers 410 to a cursor from before the events kept, and starts after them without one", async () => {
    const t = await createTenant();
    const { productId, locationId } = await stockedProduct(t, 1);
    const first = await drain(undefined, t.admin, "", 1);
    const early = (await feed("?limit=1", t.admin)).body.data.nextCursor;
    // Everything so far is 31 days old, as if the clock had moved on.
    await (await tenantDatabase(t.id))
      .prepare("update outbox_events set created_at = ? where tenant_id = ?")
      .bind(new Date(Date.now() - 31 * 86_400_000).toISOString(), t.id)
      .run();
    await adjustStock(t, productId, locationId, 1);
    for (let round = 0; round < 10 && (await outboxEvents(t)).length > 1; round++) await sweepOldEvents(env);
    expect((await outboxEvents(t)).map((event) => event.type)).toEqual(["inventory.adjusted"]);
    const gone = await feed(`?after=${early}`, t.admin);
    expect(gone.status).toBe(410);
    expect(gone.body.message).toMatch(/^This cursor points before the events kept/);
    // A cursor at the sweep's mark lost nothing: it still works.
    const fresh = await drain(first.cursor, t.admin);
    expect(fresh.items.map((item) => item.type)).toEqual(["inventory.adjusted"]);
    expect((await drain(undefined, t.admin)).items.map((item) => item.type)).toEqual(["inventory.adjusted"]);
  });

  it("needs a credential (401) and shows only the tenant's own events", async () => {
    expect((await call("GET", "/events")).status).toBe(401);
    const other = await createTenant();
    const mine = new Set((await drain(undefined, tenant.admin)).items.map((item) => item.id));
    await stockedProduct(other, 1);
    const theirs = (await drain(undefined, other.admin)).items;
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.some((item) => mine.has(item.id))).toBe(false);
    const ownEvents = new Set((await outboxEvents(other)).map((event) => event.id));
    expect(theirs.every((item) => ownEvents.has(item.id))).toBe(true);
  });
});
