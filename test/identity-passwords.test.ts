import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, newMember, type TestTenant } from "./support/builders";
import { platformDatabase } from "./support/database";
import { bearer, call } from "./support/http";
import { mailCount, mailTo, tokenIn } from "./support/mail";

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const login = (email: string, password: string) => call("POST", "/auth/login", { body: { email, password } });
const refresh = (refreshToken: string) => call("POST", "/auth/refresh", { body: { refreshToken } });
const change = (headers: Record<string, string>, body: Record<string, unknown>) =>
  call("POST", "/auth/password", { headers, body });
const requestReset = (email: string, ip = "198.51.100.7") =>
  call("POST", "/auth/password-reset", { body: { email }, headers: { "cf-connecting-ip": ip } });
const confirm = (token: string, password: string) =>
  call("POST", "/auth/password-reset/confirm", { body: { token, password } });

/** Two logins of one member: the one that changes the password, and another one (another device). */
async function twoLogins() {
  const member = await newMember(tenant, "viewer");
  const here = (await login(member.email, member.password)).body.data;
  const elsewhere = (await login(member.email, member.password)).body.data;
  return { member, here, elsewhere };
}

describe("POST /auth/password", () => {
  it("changes the password with the current one and signs out the user's other logins, not this one", async () => {
    const { member, here, elsewhere } = await twoLogins();
    const res = await change(bearer(here.token), {
      currentPassword: member.password,
      newPassword: "a-brand-new-password",
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ changedAt: expect.any(String), otherSessionsRevoked: 2 });

    expect((await login(member.email, member.password)).status).toBe(401);
    expect((await login(member.email, "a-brand-new-password")).status).toBe(200);
    expect((await refresh(elsewhere.refreshToken)).status).toBe(401);
    expect((await refresh(here.refreshToken)).status).toBe(200);
  });

  it("refuses a wrong current password (400), a short or unchanged new one (400), API keys (403), no credential (401)", async () => {
    const { member, here } = await twoLogins();
    const headers = bearer(here.token);
    const wrong = await change(headers, {
      currentPassword: "not-my-password",
      newPassword: "whatever-new-1",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual(["currentPassword: is incorrect"]);
    const short = await change(headers, { currentPassword: member.password, newPassword: "short" });
    expect(short.status).toBe(400);
    const same = await change(headers, { currentPassword: member.password, newPassword: member.password });
    expect(same.body.errors).toEqual(["newPassword: must differ from the current password"]);
    const withKey = await change(tenant.admin, { currentPassword: "x", newPassword: "whatever-new-1" });
    expect(withKey.status).toBe(403);
    expect((await change({}, { currentPassword: "x", newPassword: "whatever-new-1" })).status).toBe(401);
    expect((await login(member.email, member.password)).status).toBe(200);
  });

  it("a stolen access token cannot guess the current password: 10 wrong ones, then 429", async () => {
    const { member, here } = await twoLogins();
    const headers = { ...bearer(here.token), "cf-connecting-ip": "203.0.113.99" };
    for (let i = 0; i < 10; i++) {
      expect(
        (await change(headers, { currentPassword: `guess-${i}`, newPassword: "new-password-1" })).status,
      ).toBe(400);
    }
    const locked = await change(headers, { currentPassword: member.password, newPassword: "new-password-1" });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("password reset", () => {
  it("mails a one-time link to an account's email; the new password works and every login is signed out", async () => {
    const { member, here } = await twoLogins();
    const before = mailCount(member.email);
    const res = await requestReset(member.email.toUpperCase());
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ email: member.email });
    const mail = await mailTo(member.email, before);
    expect(mail.subject).toBe("Reset your password");
    const token = tokenIn(mail);
    expect(mail.link).toBe(`http://localhost/app/reset-password?token=${encodeURIComponent(token)}`);

    const done = await confirm(token, "reset-password-1");
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({ email: member.email });
    expect((await login(member.email, member.password)).status).toBe(401);
    expect((await login(member.email, "reset-password-1")).status).toBe(200);
    expect((await refresh(here.refreshToken)).status).toBe(401);

    expect((await confirm(token, "again-password-1")).status).toBe(404);
    expect((await login(member.email, "reset-password-1")).status).toBe(200);
  });

  it("answers an unknown email exactly like a known one, and mails nothing to it", async () => {
    const member = await newMember(tenant, "viewer");
    const unknown = `nobody-${Date.now()}@example.com`;
    const before = mailCount(member.email);
    const forUnknown = await requestReset(unknown);
    const forKnown = await requestReset(member.email);
    expect(forUnknown.status).toBe(forKnown.status);
    expect(Object.keys(forUnknown.body.data)).toEqual(Object.keys(forKnown.body.data));
    await mailTo(member.email, before);
    expect(mailCount(unknown)).toBe(0);
  });

  it("links expire after an hour, die when another one is used or the password is changed, and are stored hashed", async () => {
    const member = await newMember(tenant, "viewer");
    const first = tokenIn(
      await (async () => {
        const before = mailCount(member.email);
        await requestReset(member.email);
        return mailTo(member.email, before);
      })(),
    );
    const before = mailCount(member.email);
    await requestReset(member.email);
    const second = tokenIn(await mailTo(member.email, before));
    const rows = await platformDatabase()
      .prepare("select r.* from password_reset_tokens r join users u on u.id = r.user_id where u.email = ?")
      .bind(member.email)
      .all<{ id: string; expires_at: string; created_at: string }>();
    expect(JSON.stringify(rows.results)).not.toContain(first);
    for (const row of rows.results) {
      expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(60 * 60_000);
    }

    expect((await confirm(second, "second-password-1")).status).toBe(200);
    expect((await confirm(first, "first-password-1")).status).toBe(404);

    const again = mailCount(member.email);
    await requestReset(member.email);
    const third = tokenIn(await mailTo(member.email, again));
    await platformDatabase()
      .prepare(
        "update password_reset_tokens set expires_at = ? where token_hash is not null and used_at is null",
      )
      .bind(new Date(Date.now() - 1000).toISOString())
      .run();
    expect((await confirm(third, "third-password-1")).status).toBe(404);

    const more = mailCount(member.email);
    await requestReset(member.email);
    const fourth = tokenIn(await mailTo(member.email, more));
    const session = (await login(member.email, "second-password-1")).body.data.token;
    await change(bearer(session), {
      currentPassword: "second-password-1",
      newPassword: "changed-password-1",
    });
    expect((await confirm(fourth, "fourth-password-1")).status).toBe(404);
  });

  it("two concurrent confirms of one link: exactly one sets the password", async () => {
    const member = await newMember(tenant, "viewer");
    const before = mailCount(member.email);
    await requestReset(member.email);
    const token = tokenIn(await mailTo(member.email, before));
    const results = await Promise.all([confirm(token, "racer-one-pass"), confirm(token, "racer-two-pass")]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
    const winner = results[0]?.status === 200 ? "racer-one-pass" : "racer-two-pass";
    expect((await login(member.email, winner)).status).toBe(200);
  });

  it("sends at most 5 reset mails per email in an hour, answering every request the same", async () => {
    const member = await newMember(tenant, "viewer");
    const before = mailCount(member.email);
    for (let i = 0; i < 7; i++) expect((await requestReset(member.email, `192.0.2.${i}`)).status).toBe(202);
    await mailTo(member.email, before + 4);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailCount(member.email) - before).toBe(5);
  });

  it("validates input and refuses unknown tokens", async () => {
    expect((await requestReset("not-an-email")).status).toBe(400);
    expect((await confirm("wms_pwr_guess", "long-enough-1")).status).toBe(404);
    expect((await confirm("wms_pwr_guess", "short")).status).toBe(400);
  });
});
