import { createMessageBatch } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import { runSweeps } from "../src/scheduled";
import { createTenant, newMember, type TestTenant, unique } from "./support/builders";
import { bearer, call } from "./support/http";
import { mailTo, tokenIn } from "./support/mail";
import { stubReceiver } from "./support/webhook-receiver";

// Every line the Worker writes while this file runs (it runs in the test's isolate), as written. Caught anew for
// each test: support/webhook-receiver.ts restores every mock after each one.
const written: string[] = [];
beforeEach(() => {
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      written.push(args.map(String).join(" "));
    });
  }
});

/** The structured lines (JSON objects), parsed. */
const structured = () =>
  written.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

describe("one structured line per request", () => {
  it("names the request id, the route's pattern, status, tenant, credential and the D1 work, never the query", async () => {
    const requestId = `obs-${unique()}`;
    const res = await call("GET", "/products?search=looked-for-sku&pageSize=5", {
      headers: { ...tenant.admin, "x-request-id": requestId },
    });
    expect(res.status).toBe(200);
    const me = (await call("GET", "/auth/me", { headers: tenant.admin })).body.data as {
      apiKey: { id: string };
    };

    const lines = structured().filter((line) => line.requestId === requestId);
    expect(lines).toEqual([
      expect.objectContaining({
        level: "info",
        msg: "request",
        method: "GET",
        route: "/api/v1/products",
        status: 200,
        tenantId: tenant.id,
        actor: `api_key:${me.apiKey.id}`,
        durationMs: expect.any(Number),
        d1: expect.objectContaining({ calls: expect.any(Number), rowsRead: expect.any(Number) }),
      }),
    ]);
    expect(lines[0]).toHaveProperty(
      "d1.calls",
      expect.toSatisfy((calls: number) => calls > 0),
    );
    expect(JSON.stringify(lines)).not.toContain("looked-for-sku");
  });

  it("gives a refused request its status and error code, and an unknown path its own line", async () => {
    const requestId = `obs-${unique()}`;
    const refused = await call("POST", "/products", {
      headers: { ...tenant.admin, "x-request-id": requestId },
      body: { name: "no sku" },
    });
    expect(refused.status).toBe(400);
    expect(structured().filter((line) => line.requestId === requestId)).toEqual([
      expect.objectContaining({
        msg: "request",
        route: "/api/v1/products",
        status: 400,
        errorCode: refused.headers.get("x-error-code"),
      }),
    ]);

    const missing = `obs-${unique()}`;
    const none = await call("GET", "/no-such-thing", { headers: { "x-request-id": missing } });
    expect(none.status).toBe(404);
    const unknown = structured().filter((line) => line.requestId === missing);
    expect(unknown).toEqual([
      expect.objectContaining({ msg: "request", status: 404, errorCode: "NOT_FOUND" }),
    ]);
    expect(unknown[0]).not.toHaveProperty("tenantId");
  });
});

describe("one line per queue batch and per cron run", () => {
  it("counts a batch's messages and how each ended", async () => {
    const before = written.length;
    const deliveryId = crypto.randomUUID();
    await worker.queue(
      createMessageBatch("webhook-deliveries", [
        {
          id: "m1",
          timestamp: new Date(),
          attempts: 1,
          body: { kind: "delivery", tenantId: tenant.id, deliveryId },
        },
      ]) as never,
      env,
    );
    const batches = written.slice(before).filter((line) => line.includes('"msg":"queue batch"'));
    expect(batches.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ queue: "webhook-deliveries", messages: 1, acked: 1, retried: 0 }),
    ]);
  });

  it("times a cron run and counts its sweeps", async () => {
    await runSweeps(env);
    expect(
      structured()
        .filter((line) => line.msg === "cron run")
        .at(-1),
    ).toMatchObject({
      level: "info",
      sweeps: expect.any(Number),
      failed: 0,
      durationMs: expect.any(Number),
    });
  });
});

describe("no secret reaches a log line", () => {
  it("after sign-in, refresh, keys, a webhook, an invitation and a password reset, no line holds any of them", async () => {
    const secrets: string[] = [tenant.adminKey, tenant.owner.password];
    const { received } = stubReceiver();

    const wrongPassword = `wrong-${unique()}`;
    expect(
      (await call("POST", "/auth/login", { body: { email: tenant.owner.email, password: wrongPassword } }))
        .status,
    ).toBe(401);
    secrets.push(wrongPassword);

    const login = (
      await call("POST", "/auth/login", {
        body: { email: tenant.owner.email, password: tenant.owner.password },
      })
    ).body.data as { token: string; refreshToken: string };
    const renewed = (await call("POST", "/auth/refresh", { body: { refreshToken: login.refreshToken } })).body
      .data as { token: string; refreshToken: string };
    secrets.push(login.token, login.refreshToken, renewed.token, renewed.refreshToken);
    const session = { ...bearer(renewed.token), "x-tenant-id": tenant.id };

    const key = (
      await call("POST", "/api-keys", {
        headers: session,
        body: { name: "logged?", scopes: ["read:products"] },
      })
    ).body.data as { key: string };
    expect((await call("GET", "/products", { headers: { "x-api-key": key.key } })).status).toBe(200);
    secrets.push(key.key);

    const hook = (
      await call("POST", "/webhooks", {
        headers: tenant.admin,
        body: { url: "https://receiver.example.com/hook", events: ["product.created"] },
      })
    ).body.data as { secret: string };
    secrets.push(hook.secret);
    const sku = `LOG-${unique()}`;
    expect(
      (await call("POST", "/products", { headers: tenant.admin, body: { sku, name: "Logged" } })).status,
    ).toBe(201);
    await vi.waitFor(() => expect(received.some((r) => r.body.includes(sku))).toBe(true), {
      timeout: 10_000,
    });

    const member = await newMember(tenant, "viewer");
    const invitationToken = tokenIn(await mailTo(member.email));
    secrets.push(
      invitationToken,
      member.password,
      member.headers.authorization?.replace("Bearer ", "") ?? "",
    );

    const resetPassword = `reset-${unique()}`;
    await call("POST", "/auth/password-reset", { body: { email: member.email } });
    const resetToken = tokenIn(await mailTo(member.email, 1));
    expect(
      (
        await call("POST", "/auth/password-reset/confirm", {
          body: { token: resetToken, password: resetPassword },
        })
      ).status,
    ).toBe(200);
    secrets.push(resetToken, resetPassword);

    // The development mailer's lines are the local mailbox (src/mail/development.ts), not logs: production mails.
    const logged = written.filter((line) => !line.startsWith("[dev-mail]"));
    expect(structured().filter((line) => line.msg === "request").length).toBeGreaterThan(10);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(7);
      expect(logged.filter((line) => line.includes(secret))).toEqual([]);
    }
  });
});
