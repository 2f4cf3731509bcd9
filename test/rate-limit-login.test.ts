import { createExecutionContext, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { ok } from "../src/http/envelope";
import { AppError } from "../src/http/errors";
import { throttleLogin } from "../src/rate-limit/login-throttle";
import { createTenant, unique } from "./support/builders";
import { platformDatabase } from "./support/database";
import { BASE, call } from "./support/http";
import { mailCount, mailTo, tokenIn } from "./support/mail";

// A stand-in for the login route around the real limiter: "right" is the password, and `usual` lists the
// "email|ip" pairs that signed in recently (the real route reads them from D1).
const usual = new Set<string>();
const app = createApp();
app.post("/api/v1/__login", async (c) => {
  const { email, password } = await c.req.json<{ email: string; password: string }>();
  const known = Promise.resolve(usual.has(`${email}|${c.req.header("cf-connecting-ip")}`));
  return throttleLogin(c, email, known, async () => {
    if (password !== "right") throw new AppError("UNAUTHORIZED", "Invalid email or password");
    return ok(c, { email });
  });
});

async function login(email: string, password: string, ip = "203.0.113.7") {
  const response = await app.request(
    `${BASE}/__login`,
    {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": ip },
      body: JSON.stringify({ email, password }),
    },
    env,
    createExecutionContext(),
  );
  return { status: response.status, headers: response.headers };
}

/** Moves every logged attempt of `subject` back by `ms`, as if that much time had passed (then restarts the object so it rereads its storage). */
async function age(subject: string, ms: number) {
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(subject));
  await runInDurableObject(stub, (_instance, state) => {
    state.storage.sql.exec("UPDATE hits SET at = at - ?", ms);
  });
  await evictDurableObject(stub);
}

const MINUTE = 60_000;
const freshEmail = () => `victim-${unique()}@example.com`;
const pair = (windowMs: number, email: string, client: string) => `login-pair:${windowMs}:${email}|${client}`;
const retryAfter = (r: { headers: Headers }) => Number(r.headers.get("Retry-After"));

describe("brute-force limits on login", () => {
  it("per email and client: a delay that grows, from a minute after 5 failures to a day after 20", async () => {
    const email = freshEmail();
    const ip = "203.0.113.10";
    for (let i = 0; i < 5; i++) expect((await login(email, "wrong", ip)).status).toBe(401);
    const first = await login(email, "right", ip);
    expect(first.status).toBe(429);
    expect(first.headers.get("X-Error-Code")).toBe("RATE_LIMITED");
    expect(retryAfter(first)).toBeLessThanOrEqual(60);

    await age(pair(MINUTE, email, ip), MINUTE);
    for (let i = 0; i < 5; i++) expect((await login(email, "wrong", ip)).status).toBe(401);
    await age(pair(MINUTE, email, ip), MINUTE);
    const second = await login(email, "wrong", ip);
    expect(second.status).toBe(429);
    expect(retryAfter(second)).toBeGreaterThan(10 * 60);
    expect(retryAfter(second)).toBeLessThanOrEqual(15 * 60);

    for (const windowMs of [MINUTE, 15 * MINUTE]) await age(pair(windowMs, email, ip), 15 * MINUTE);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 5; i++) expect((await login(email, "wrong", ip)).status).toBe(401);
      for (const windowMs of [MINUTE, 15 * MINUTE]) await age(pair(windowMs, email, ip), 15 * MINUTE);
    }
    const third = await login(email, "wrong", ip);
    expect(third.status).toBe(429);
    expect(retryAfter(third)).toBeGreaterThan(20 * 60 * 60);
  });

  it("a locked (email, client) pair locks neither the email elsewhere nor the client for other emails", async () => {
    const email = freshEmail();
    for (let i = 0; i < 5; i++) await login(email, "wrong", "203.0.113.11");
    expect((await login(email, "right", "203.0.113.11")).status).toBe(429);
    expect((await login(email, "right", "203.0.113.12")).status).toBe(200);
    expect((await login(freshEmail(), "right", "203.0.113.11")).status).toBe(200);
  });

  it("admits exactly 5 of 20 concurrent wrong passwords for one email from one client", async () => {
    const email = freshEmail();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => login(email, "wrong", "203.0.113.13")),
    );
    expect(results.filter((r) => r.status === 401)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(15);
  });

  it("a success clears the pair's failures", async () => {
    const email = freshEmail();
    for (let i = 0; i < 4; i++) await login(email, "wrong", "203.0.113.14");
    expect((await login(email.toUpperCase(), "right", "203.0.113.14")).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(email, "wrong", "203.0.113.14")).status).toBe(401);
    expect((await login(email, "wrong", "203.0.113.14")).status).toBe(429);
  });

  it("caps an email at 30 failures an hour from many clients, except from a client it signed in from", async () => {
    const email = freshEmail();
    usual.add(`${email}|192.0.2.200`);
    const spread = Array.from({ length: 30 }, (_, i) => login(email, "wrong", `198.18.0.${i + 1}`));
    expect((await Promise.all(spread)).every((r) => r.status === 401)).toBe(true);
    const stranger = await login(email, "right", "198.18.1.1");
    expect(stranger.status).toBe(429);
    expect(retryAfter(stranger)).toBeGreaterThan(50 * 60);
    // The person's usual address is not held to the ceiling; their success does not wipe the attacker's count.
    expect((await login(email, "right", "192.0.2.200")).status).toBe(200);
    expect((await login(email, "right", "198.18.1.2")).status).toBe(429);
    await age(`login-email:${email}`, 60 * MINUTE);
    expect((await login(email, "right", "198.18.1.2")).status).toBe(200);
  });

  it("counts an IPv6 /64 as one client", async () => {
    const email = freshEmail();
    for (let i = 1; i <= 5; i++) expect((await login(email, "wrong", `2001:db8:7:7::${i}`)).status).toBe(401);
    expect((await login(email, "right", "2001:db8:7:7:ffff::1")).status).toBe(429);
    expect((await login(email, "right", "2001:db8:7:8::1")).status).toBe(200);
  });

  it("refuses a client after 100 failures across many emails, while other clients still log in", async () => {
    const ip = "198.51.100.23";
    const emails = Array.from({ length: 20 }, freshEmail);
    for (const email of emails) {
      const failures = await Promise.all(Array.from({ length: 5 }, () => login(email, "wrong", ip)));
      expect(failures.every((r) => r.status === 401)).toBe(true);
    }
    const blocked = await login(freshEmail(), "right", ip);
    expect(blocked.status).toBe(429);
    expect(retryAfter(blocked)).toBeGreaterThan(0);
    expect((await login(freshEmail(), "right", "198.51.100.24")).status).toBe(200);
  });
});

describe("attack: locking a person out of their account (POST /auth/login, the real route)", () => {
  it("failures from many other addresses cannot lock the owner out of the address they sign in from", async () => {
    const tenant = await createTenant();
    const attempt = (password: string, ip: string) =>
      call("POST", "/auth/login", {
        body: { email: tenant.owner.email, password },
        headers: { "cf-connecting-ip": ip },
      });
    expect((await attempt(tenant.owner.password, "192.0.2.50")).status).toBe(200);
    await expect
      .poll(
        async () =>
          (
            await platformDatabase()
              .prepare("select count(*) as n from sign_in_clients where user_id = ?")
              .bind(tenant.owner.id)
              .first<{ n: number }>()
          )?.n,
      )
      .toBe(1);

    for (let wave = 0; wave < 4; wave++) {
      const wrong = Array.from({ length: 10 }, (_, i) =>
        attempt("wrong-password-1", `198.19.${wave}.${i + 1}`),
      );
      await Promise.all(wrong);
    }
    expect((await attempt(tenant.owner.password, "198.19.9.9")).status).toBe(429);
    expect((await attempt(tenant.owner.password, "192.0.2.50")).status).toBe(200);
  });
});

describe("attack: guessing mailed tokens (invitation inspect and accept, password-reset confirm)", () => {
  it("unknown tokens count with failed logins: after 100 from a client it is refused everywhere, others are not", async () => {
    const tenant = await createTenant();
    const invitee = `invitee-${unique()}@example.com`;
    const before = mailCount(invitee);
    const invited = await call("POST", "/users", {
      headers: tenant.admin,
      body: { email: invitee, role: "viewer" },
    });
    expect(invited.status).toBe(202);
    const token = tokenIn(await mailTo(invitee, before));
    const guesser = { "cf-connecting-ip": "198.18.7.7" };
    const post = (path: string, body: Record<string, unknown>, headers = guesser) =>
      call("POST", path, { headers, body });
    const guess = () => `wms_inv_${unique()}${unique()}`;

    // A known token is not a failure: it spends nothing.
    for (let i = 0; i < 3; i++) expect((await post("/auth/invitations/inspect", { token })).status).toBe(200);
    for (let wave = 0; wave < 5; wave++) {
      const answers = await Promise.all([
        ...Array.from({ length: 10 }, () => post("/auth/invitations/inspect", { token: guess() })),
        ...Array.from({ length: 5 }, () =>
          post("/auth/invitations/accept", { token: guess(), password: "long-enough-pw-1", name: "G" }),
        ),
        ...Array.from({ length: 5 }, () =>
          post("/auth/password-reset/confirm", { token: guess(), password: "long-enough-pw-1" }),
        ),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(404));
    }
    const refused = [
      await post("/auth/invitations/inspect", { token }),
      await post("/auth/invitations/accept", { token, password: "long-enough-pw-1", name: "Invitee" }),
      await post("/auth/password-reset/confirm", { token: guess(), password: "long-enough-pw-1" }),
      await post("/auth/login", { email: tenant.owner.email, password: tenant.owner.password }),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(Number(answer.headers.get("Retry-After"))).toBeGreaterThan(0);
    }
    // Refused before the token was looked at: the invitation is still open, from another client.
    const elsewhere = { "cf-connecting-ip": "198.18.7.8" };
    expect((await post("/auth/invitations/inspect", { token }, elsewhere)).status).toBe(200);
    const accepted = await post(
      "/auth/invitations/accept",
      { token, password: "long-enough-pw-1", name: "Invitee" },
      elsewhere,
    );
    expect(accepted.status).toBe(200);
  });
});
