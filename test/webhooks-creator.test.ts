import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deliver } from "../src/webhook-delivery/deliver";
import { createTenant, newMember, type TestTenant, whoAmI } from "./support/builders";
import { tenantDatabase } from "./support/database";
import { call } from "./support/http";
import { stubReceiver } from "./support/webhook-receiver";

// A subscription acts for whoever created it, as an API key does: it records its creator and delivers only
// while that creator could read what it sends.

type Headers = Record<string, string>;

async function subscribe(headers: Headers) {
  const res = await call("POST", "/webhooks", {
    headers,
    body: { url: "https://erp.example.com/creator", events: ["*"] },
  });
  expect(res.status).toBe(201);
  return res.body.data;
}

/** A product.updated event (with its cost) and its pending delivery to the subscription, not queued. */
async function pendingDelivery(t: TestTenant, subscriptionId: string) {
  const eventId = crypto.randomUUID();
  const deliveryId = crypto.randomUUID();
  const now = new Date().toISOString();
  const db = await tenantDatabase(t.id);
  await db.batch([
    db
      .prepare(
        `insert into outbox_events (id, tenant_id, type, payload, created_at, dispatched_at, processed_at, seq)
         values (?, ?, 'product.updated', ?, ?, ?, ?, (select coalesce(max(seq), 0) + 1 from outbox_events where tenant_id = ?2))`,
      )
      .bind(eventId, t.id, JSON.stringify({ id: "p1", cost: 4.2 }), now, now, now),
    db
      .prepare(
        `insert into webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempts, created_at, updated_at)
         values (?, ?, ?, ?, 'product.updated', 'pending', 0, ?, ?)`,
      )
      .bind(deliveryId, t.id, subscriptionId, eventId, now, now),
  ]);
  return deliveryId;
}

const subscription = async (t: TestTenant, id: string) =>
  (await call("GET", `/webhooks/${id}`, { headers: t.admin })).body.data;

describe("a webhook subscription's creator", () => {
  it("is recorded, a member or a key", async () => {
    const t = await createTenant();
    const admin = await newMember(t, "admin");
    expect((await subscribe(admin.headers)).createdBy).toEqual({ type: "user", id: admin.id });
    const { apiKey } = await whoAmI(t.admin, "api_key");
    const byKey = await subscribe(t.admin);
    expect(byKey.createdBy).toEqual({ type: "api_key", id: apiKey.id });
    expect((await subscription(t, byKey.id)).createdBy).toEqual(byKey.createdBy);
  });

  it("attack: a removed admin's receiver gets nothing more, and the subscription says why", async () => {
    const t = await createTenant();
    const admin = await newMember(t, "admin");
    const { id } = await subscribe(admin.headers);
    expect((await call("DELETE", `/users/${admin.id}`, { headers: t.admin })).status).toBe(200);

    const { received } = stubReceiver();
    const deliveryId = await pendingDelivery(t, id);
    expect(await deliver(env, t.id, deliveryId)).toBe("done");
    expect(received).toHaveLength(0);
    const stopped = await subscription(t, id);
    expect(stopped.active).toBe(false);
    expect(stopped.disabledReason).toContain(`user ${admin.id} is no longer a member of the tenant`);
    const deliveries = await call("GET", `/webhooks/${id}/deliveries`, { headers: t.admin });
    expect(deliveries.body.data.items[0]).toMatchObject({
      status: "failed",
      lastError: expect.stringContaining("not sent: Its creator can no longer act for it"),
    });

    // Not transferable: re-enabling is refused; an admin subscribes anew as themself.
    const reenable = await call("PUT", `/webhooks/${id}`, {
      headers: t.admin,
      body: { url: "https://erp.example.com/creator", events: ["*"], active: true },
    });
    expect(reenable.status).toBe(409);
    expect(reenable.body.message).toContain("create a new subscription");
  });

  it("a subscription made with a key stops when the key is revoked", async () => {
    const t = await createTenant();
    const key = await call("POST", "/api-keys", {
      headers: t.admin,
      body: { name: "hooks", scopes: ["admin"] },
    });
    const { id } = await subscribe({ "x-api-key": key.body.data.key });
    expect((await call("DELETE", `/api-keys/${key.body.data.id}`, { headers: t.admin })).status).toBe(200);

    const { received } = stubReceiver();
    await deliver(env, t.id, await pendingDelivery(t, id));
    expect(received).toHaveLength(0);
    expect((await subscription(t, id)).disabledReason).toContain(`API key ${key.body.data.id} was revoked`);
  });

  it("keeps delivering while its creator may read the events", async () => {
    const t = await createTenant();
    const admin = await newMember(t, "admin");
    const { id } = await subscribe(admin.headers);
    // Demoted, the creator still reads every family: the subscription goes on, as their keys do.
    expect(
      (await call("PUT", `/users/${admin.id}`, { headers: t.admin, body: { role: "viewer" } })).status,
    ).toBe(200);
    const { received } = stubReceiver();
    await deliver(env, t.id, await pendingDelivery(t, id));
    expect(received).toHaveLength(1);
    expect((await subscription(t, id)).active).toBe(true);
  });
});
