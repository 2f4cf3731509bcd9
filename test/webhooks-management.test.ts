import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, scopedKey, type TestTenant } from "./support/builders";
import { tenantDatabase } from "./support/database";
import { call } from "./support/http";
import { stubReceiver } from "./support/webhook-receiver";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const create = (body: Record<string, unknown>, headers = tenant.admin) =>
  call("POST", "/webhooks", { headers, body });
const hook = {
  url: "https://erp.example.com/hooks/warehouse",
  events: ["inventory.adjusted", "order.created"],
};

describe("webhook subscriptions", () => {
  it("return the whsec_ secret once; it is stored encrypted and never shown again", async () => {
    const res = await create({ ...hook, description: "ERP" });
    expect(res.status).toBe(201);
    const { id, secret } = res.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.body.data).toMatchObject({ ...hook, description: "ERP", active: true, disabledReason: null });
    const got = await call("GET", `/webhooks/${id}`, { headers: tenant.admin });
    expect(got.body.data).not.toHaveProperty("secret");
    const list = await call("GET", "/webhooks", { headers: tenant.admin });
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(6));
    const row = await (await tenantDatabase(tenant.id))
      .prepare("select * from webhook_subscriptions where id = ?")
      .bind(id)
      .first();
    expect(JSON.stringify(row)).not.toContain(secret.slice(6));
  });

  it("refuse unknown event names, too many events and bad URLs with 400", async () => {
    const unknown = await create({ ...hook, events: ["order.created", "order.teleported"] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.[0]).toMatch(/^events\[1\]: must be \* or one of /);
    const tooMany = await create({ ...hook, events: Array.from({ length: 51 }, () => "*") });
    expect(tooMany.status).toBe(400);
    expect((await create({ ...hook, events: ["*"] })).status).toBe(201);
  });

  it.each([
    ["http://erp.example.com/hook", "must use https://"],
    ["https://127.0.0.1/hook", "must name a host, not an IP address"],
    ["https://10.0.0.8/hook", "must name a host, not an IP address"],
    ["https://[::1]/hook", "must name a host, not an IP address"],
    ["https://[::ffff:169.254.169.254]/latest", "must name a host, not an IP address"],
    ["https://169.254.169.254/latest/meta-data", "must name a host, not an IP address"],
    ["https://localhost/hook", "must be a public host name"],
    ["https://metadata.google.internal/computeMetadata", "must be a public host name"],
    ["https://printer.local/hook", "must be a public host name"],
    ["https://intranet/hook", "must be a public host name"],
    ["https://localhost./hook", "must be a public host name"],
    ["https://metadata.google.internal./computeMetadata", "must be a public host name"],
    ["https://erp.example.com:6379/hook", "must use port 443 (the default) or 8443"],
    ["https://user:pass@erp.example.com/hook", "must not contain credentials"],
    ["not a url", "must be an absolute URL"],
    ["ftp://erp.example.com/hook", "must use https://"],
  ])("refuse %s", async (url, reason) => {
    const res = await create({ ...hook, url });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([`url: ${reason}`]);
  });

  it("allow http://localhost receivers in development only", async () => {
    expect(env.ALLOW_LOCAL_WEBHOOK_URLS).toBe("true");
    expect((await create({ ...hook, url: "http://localhost:8855/hook" })).status).toBe(201);
  });

  it("update, re-enable and delete; at most 20 per tenant", async () => {
    const t = await createTenant();
    const { id } = (await create(hook, t.admin)).body.data;
    const updated = await call("PUT", `/webhooks/${id}`, {
      headers: t.admin,
      body: { url: "https://erp.example.com/v2", events: ["*"], active: false },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      url: "https://erp.example.com/v2",
      events: ["*"],
      active: false,
    });
    const results = await Promise.all(Array.from({ length: 22 }, () => create(hook, t.admin)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(19);
    expect(results.find((r) => r.status === 400)?.body.message).toBe(
      "A tenant can have at most 20 webhook subscriptions",
    );
    expect((await call("DELETE", `/webhooks/${id}`, { headers: t.admin })).status).toBe(200);
    expect((await call("GET", `/webhooks/${id}`, { headers: t.admin })).status).toBe(404);
  });

  it("rotate the secret: both sign for 24 hours", async () => {
    const { id, secret: old } = (await create({ ...hook, url: "https://rotate.example.com/hook" })).body.data;
    const rotated = await call("POST", `/webhooks/${id}/rotate-secret`, { headers: tenant.admin });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.data.secret;
    expect(fresh).not.toBe(old);
    const { received } = stubReceiver();
    expect((await call("POST", `/webhooks/${id}/test`, { headers: tenant.admin })).status).toBe(202);
    await expect.poll(() => received.length, { timeout: 5000 }).toBeGreaterThan(0);
    const [delivery] = received;
    expect(delivery!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    for (const secret of [old, fresh]) {
      expect(new Webhook(secret).verify(delivery!.body, delivery!.headers)).toMatchObject({
        type: "webhook.test",
      });
    }
  });

  it("are admin-only and per tenant", async () => {
    const { id } = (await create(hook)).body.data;
    const writer = await scopedKey(tenant, ["write:inventory", "write:orders", "write:products"]);
    expect((await call("GET", "/webhooks", { headers: writer })).status).toBe(403);
    expect((await create(hook, writer)).status).toBe(403);
    expect((await call("GET", "/webhooks")).status).toBe(401);
    const other = await createTenant();
    for (const [method, path] of [
      ["GET", `/webhooks/${id}`],
      ["DELETE", `/webhooks/${id}`],
      ["POST", `/webhooks/${id}/test`],
      ["POST", `/webhooks/${id}/rotate-secret`],
      ["GET", `/webhooks/${id}/deliveries`],
    ] as const) {
      expect((await call(method, path, { headers: other.admin })).status, `${method} ${path}`).toBe(404);
    }
  });
});
