import { env } from "cloudflare:workers";
import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { JWT_AUDIENCE, JWT_ISSUER } from "../src/auth/jwt";
import { createTenant, loginHeaders, type TestTenant } from "./support/builders";
import { platformDatabase } from "./support/database";
import { bearer, call } from "./support/http";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const login = (email: string, password: string) => call("POST", "/auth/login", { body: { email, password } });

async function token(claims: Record<string, unknown>, options: { secret?: string; alg?: string } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: options.alg ?? "HS256" })
    .setIssuer((claims.iss as string) ?? JWT_ISSUER)
    .setAudience((claims.aud as string) ?? JWT_AUDIENCE)
    .setSubject(tenant.owner.id)
    .setJti(crypto.randomUUID())
    .setIssuedAt((claims.iat as number) ?? now)
    .setExpirationTime((claims.exp as number) ?? now + 3600)
    .sign(new TextEncoder().encode(options.secret ?? env.JWT_SECRET));
}

describe("login", () => {
  it("returns a token, a refresh token, its expiry and the user with memberships", async () => {
    const res = await login(tenant.owner.email.toUpperCase(), tenant.owner.password);
    expect(res.status).toBe(200);
    const { token, refreshToken, expiresAt, user } = res.body.data;
    expect(token.split(".")).toHaveLength(3);
    expect(refreshToken).toMatch(/^wms_rt_/);
    const ttl = Date.parse(expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(3500_000);
    expect(ttl).toBeLessThanOrEqual(3600_000);
    expect(user).toMatchObject({ id: tenant.owner.id, email: tenant.owner.email });
    expect(user.memberships).toEqual([expect.objectContaining({ tenantId: tenant.id, role: "owner" })]);

    const me = await call("GET", "/auth/me", { headers: bearer(token) });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ type: "user", user: { id: tenant.owner.id } });
  });

  it("gives identical 401 bodies for a wrong password and an unknown email", async () => {
    const wrong = await login(tenant.owner.email, "not-the-password");
    const unknown = await login("nobody-here@example.com", "not-the-password");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("rejects a malformed login body with 400 per field", async () => {
    const res = await call("POST", "/auth/login", { body: { email: "not-an-email" } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/^email: /), expect.stringMatching(/^password: /)]),
    );
  });
});

describe("refresh tokens", () => {
  it("rotate on every use; reusing a rotated one revokes the whole family", async () => {
    const first = (await login(tenant.owner.email, tenant.owner.password)).body.data;
    const second = await call("POST", "/auth/refresh", { body: { refreshToken: first.refreshToken } });
    expect(second.status).toBe(200);
    expect(second.body.data.refreshToken).not.toBe(first.refreshToken);
    expect(second.body.data.token).not.toBe(first.token);

    // The old token again: reuse. It fails, and so does the successor it had produced.
    const reuse = await call("POST", "/auth/refresh", { body: { refreshToken: first.refreshToken } });
    expect(reuse.status).toBe(401);
    const successor = await call("POST", "/auth/refresh", {
      body: { refreshToken: second.body.data.refreshToken },
    });
    expect(successor.status).toBe(401);
  });

  it("lets exactly one of two concurrent refreshes with one token win", async () => {
    const session = (await login(tenant.owner.email, tenant.owner.password)).body.data;
    const results = await Promise.all(
      [1, 2].map(() => call("POST", "/auth/refresh", { body: { refreshToken: session.refreshToken } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it("logout revokes the session's refresh token", async () => {
    const session = (await login(tenant.owner.email, tenant.owner.password)).body.data;
    const out = await call("POST", "/auth/logout", { body: { refreshToken: session.refreshToken } });
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({ revoked: true });
    const after = await call("POST", "/auth/refresh", { body: { refreshToken: session.refreshToken } });
    expect(after.status).toBe(401);
  });

  it("are stored only as hashes, like passwords", async () => {
    const session = (await login(tenant.owner.email, tenant.owner.password)).body.data;
    const tokens = await platformDatabase().prepare("select * from refresh_tokens").all();
    expect(JSON.stringify(tokens.results)).not.toContain(session.refreshToken);
    const user = await platformDatabase()
      .prepare("select * from users where id = ?")
      .bind(tenant.owner.id)
      .first();
    expect(JSON.stringify(user)).not.toContain(tenant.owner.password);
    expect(user?.password_iterations).toBeLessThanOrEqual(100_000);
  });
});

describe("access tokens", () => {
  const reject = async (jwt: string) => {
    const res = await call("GET", "/auth/me", { headers: bearer(jwt) });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  };

  it("accepts a well-formed token", async () => {
    const res = await call("GET", "/auth/me", { headers: bearer(await token({})) });
    expect(res.status).toBe(200);
  });

  it("refuses expired, tampered, alg none, wrong audience, wrong issuer and wrong key", async () => {
    const now = Math.floor(Date.now() / 1000);
    await reject(await token({ iat: now - 7200, exp: now - 3600 }));
    const good = await token({});
    const [header, payload, signature] = good.split(".");
    const forged = btoa(JSON.stringify({ ...JSON.parse(atob(payload!)), sub: crypto.randomUUID() }))
      .replace(/=+$/, "")
      .replace(/\+/g, "-")
      .replace(/\//g, "_");
    await reject(`${header}.${forged}.${signature}`);
    const none = btoa(JSON.stringify({ alg: "none", typ: "JWT" })).replace(/=+$/, "");
    await reject(`${none}.${payload}.`);
    await reject(await token({ aud: "someone-else" }));
    await reject(await token({ iss: "someone-else" }));
    await reject(await token({}, { secret: "another-secret-of-enough-length-0123456789" }));
    await reject("not-a-jwt");
  });

  it("answer 401 with WWW-Authenticate when no credential or a malformed header is sent", async () => {
    const none = await call("GET", "/auth/me");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const malformed = await call("GET", "/auth/me", { headers: { authorization: "Basic abc" } });
    expect(malformed.status).toBe(401);
  });

  it("need no D1 read to authenticate (GET /auth/me reads only the profile)", async () => {
    const headers = await loginHeaders(tenant, tenant.owner.email, tenant.owner.password);
    const res = await call("GET", "/auth/me", { headers: { authorization: headers.authorization } });
    expect(res.status).toBe(200);
    // Two statements: the user and their memberships; the token itself cost no query.
    expect(res.headers.get("x-d1-stats")).toMatch(/calls=2;/);
  });
});
