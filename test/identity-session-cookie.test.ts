import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type TestTenant } from "./support/builders";
import { BASE, call } from "./support/http";
import { mailTo, tokenIn } from "./support/mail";

// The web app's session: the refresh token in an HttpOnly cookie, honoured only with X-Session-Cookie: 1 from
// this origin (docs/decisions/web-app.md).
let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const ORIGIN = new URL(BASE).origin;
const page = { "x-session-cookie": "1", origin: ORIGIN, "sec-fetch-site": "same-origin" };

/** The `wms_refresh` cookie a response sets: its value and attributes. */
function cookieOf(headers: Headers) {
  const line = headers.getSetCookie().find((c) => c.startsWith("wms_refresh="));
  if (!line) return undefined;
  const [pair = "", ...attributes] = line.split(/;\s*/);
  return { value: pair.slice("wms_refresh=".length), attributes: attributes.map((a) => a.toLowerCase()) };
}

async function signInWithCookie() {
  const res = await call("POST", "/auth/login", {
    headers: page,
    body: { email: tenant.owner.email, password: tenant.owner.password },
  });
  expect(res.status).toBe(200);
  const cookie = cookieOf(res.headers);
  if (!cookie) throw new Error("no session cookie");
  return { res, cookie };
}

const refreshWith = (value: string, headers: Record<string, string> = page) =>
  call("POST", "/auth/refresh", { headers: { ...headers, cookie: `wms_refresh=${value}` } });

describe("the session cookie", () => {
  it("keeps the refresh token out of the body, in an HttpOnly, Secure, SameSite=Strict cookie for /api/v1/auth", async () => {
    const { res, cookie } = await signInWithCookie();
    expect(res.body.data.refreshToken).toBe("");
    expect(res.body.data.token.split(".")).toHaveLength(3);
    expect(cookie.value).toMatch(/^wms_rt_/);
    expect(cookie.attributes).toEqual(
      expect.arrayContaining([
        "httponly",
        "secure",
        "samesite=strict",
        "path=/api/v1/auth",
        "max-age=2592000",
      ]),
    );
    // Without the header, login answers as before: the token in the body, no cookie.
    const plain = await call("POST", "/auth/login", {
      body: { email: tenant.owner.email, password: tenant.owner.password },
    });
    expect(plain.body.data.refreshToken).toMatch(/^wms_rt_/);
    expect(cookieOf(plain.headers)).toBeUndefined();
  });

  it("rotates through the cookie without a body, and a reused cookie ends the session and clears it", async () => {
    const { cookie } = await signInWithCookie();
    const next = await refreshWith(cookie.value);
    expect(next.status).toBe(200);
    expect(next.body.data.refreshToken).toBe("");
    const successor = cookieOf(next.headers);
    expect(successor?.value).toMatch(/^wms_rt_/);
    expect(successor?.value).not.toBe(cookie.value);

    const reused = await refreshWith(cookie.value);
    expect(reused.status).toBe(401);
    expect(cookieOf(reused.headers)?.attributes).toContain("max-age=0");
    // Reuse detection revoked the whole login: the successor is dead too.
    expect((await refreshWith(successor?.value ?? "")).status).toBe(401);
  });

  it("ignores the cookie without the header, and refuses it from another origin or site", async () => {
    const { cookie } = await signInWithCookie();
    const bare = await call("POST", "/auth/refresh", { headers: { cookie: `wms_refresh=${cookie.value}` } });
    expect(bare.status).toBe(400);
    expect(bare.body.errors).toEqual([expect.stringMatching(/^refreshToken: is required/)]);

    const foreign = await refreshWith(cookie.value, { ...page, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const crossSite = await refreshWith(cookie.value, { ...page, "sec-fetch-site": "cross-site" });
    expect(crossSite.status).toBe(403);
    // Neither attempt used the token: it still rotates.
    expect((await refreshWith(cookie.value)).status).toBe(200);
  });

  it("answers 401 to the header without a cookie, and signs out by revoking the cookie's token", async () => {
    const none = await call("POST", "/auth/refresh", { headers: page });
    expect(none.status).toBe(401);

    const { cookie } = await signInWithCookie();
    const out = await call("POST", "/auth/logout", {
      headers: { ...page, cookie: `wms_refresh=${cookie.value}` },
    });
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({ revoked: true });
    expect(cookieOf(out.headers)?.attributes).toContain("max-age=0");
    expect((await refreshWith(cookie.value)).status).toBe(401);
  });

  it("signs a new person in by invitation with the cookie", async () => {
    const email = `cookie-${crypto.randomUUID()}@example.com`;
    const invited = await call("POST", "/users", { headers: tenant.admin, body: { email, role: "viewer" } });
    expect(invited.status).toBe(202);
    const token = tokenIn(await mailTo(email));
    const accepted = await call("POST", "/auth/invitations/accept", {
      headers: page,
      body: { token, name: "Cookie Person", password: "cookie-password-1" },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ refreshToken: "", user: { email } });
    const cookie = cookieOf(accepted.headers);
    expect(cookie?.attributes).toEqual(expect.arrayContaining(["httponly", "secure", "samesite=strict"]));
    expect((await refreshWith(cookie?.value ?? "")).status).toBe(200);
  });
});
