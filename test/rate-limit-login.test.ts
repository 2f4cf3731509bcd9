import { createExecutionContext, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { ok } from "../src/http/envelope";
import { AppError } from "../src/http/errors";
import { throttleLogin } from "../src/rate-limit/login-throttle";
import { createTenant, unique } from "./support/builders";
import { BASE, call } from "./support/http";

const app = createApp();
app.post("/api/v1/__login", async (c) => {
  const { email, password } = await c.req.json<{ email: string; password: string }>();
  return throttleLogin(c, email, async () => {
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

const FIFTEEN_MINUTES = 15 * 60_000;
const freshEmail = () => `victim-${unique()}@example.com`;

describe("brute-force limits on login (per email and per client IP)", () => {
  it("refuses an email after 10 wrong passwords with 429 and Retry-After, even with the right one", async () => {
    const email = freshEmail();
    for (let i = 0; i < 10; i++) expect((await login(email, "wrong")).status).toBe(401);
    const locked = await login(email, "wrong");
    expect(locked.status).toBe(429);
    expect(locked.headers.get("X-Error-Code")).toBe("RATE_LIMITED");
    const retryAfter = Number(locked.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect((await login(email, "right")).status).toBe(429);
    // Another email from the same address is not locked out.
    expect((await login(freshEmail(), "right")).status).toBe(200);
  });

  it("admits exactly 10 of 20 concurrent wrong passwords for one email", async () => {
    const email = freshEmail();
    const results = await Promise.all(Array.from({ length: 20 }, () => login(email, "wrong")));
    expect(results.filter((r) => r.status === 401)).toHaveLength(10);
    expect(results.filter((r) => r.status === 429)).toHaveLength(10);
  });

  it("allows the email again once its failures have left the 15-minute window", async () => {
    const email = freshEmail();
    for (let i = 0; i < 10; i++) await login(email, "wrong");
    expect((await login(email, "right")).status).toBe(429);
    await age(`login-email:${email}`, FIFTEEN_MINUTES - 60_000);
    expect((await login(email, "right")).status).toBe(429);
    await age(`login-email:${email}`, 60_000);
    expect((await login(email, "right")).status).toBe(200);
  });

  it("clears an email's failures on a successful login", async () => {
    const email = freshEmail();
    for (let i = 0; i < 9; i++) await login(email, "wrong");
    expect((await login(email.toUpperCase(), "right")).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await login(email, "wrong")).status).toBe(401);
    expect((await login(email, "wrong")).status).toBe(429);
  });

  it("refuses a client IP after 100 failures across many emails, while other IPs still log in", async () => {
    const ip = "198.51.100.23";
    const emails = Array.from({ length: 20 }, freshEmail);
    for (const email of emails) {
      const failures = await Promise.all(Array.from({ length: 5 }, () => login(email, "wrong", ip)));
      expect(failures.every((r) => r.status === 401)).toBe(true);
    }
    const blocked = await login(freshEmail(), "right", ip);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await login(freshEmail(), "right", "198.51.100.24")).status).toBe(200);
  });
});

describe("POST /auth/login (the real route)", () => {
  it("locks an owner's email after 10 wrong passwords, and a success before that clears the failures", async () => {
    const tenant = await createTenant();
    const attempt = (password: string) =>
      call("POST", "/auth/login", { body: { email: tenant.owner.email, password } });
    for (let i = 0; i < 9; i++) expect((await attempt("wrong-password-1")).status).toBe(401);
    expect((await attempt(tenant.owner.password)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await attempt("wrong-password-1")).status).toBe(401);
    const locked = await attempt(tenant.owner.password);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
  });
});
