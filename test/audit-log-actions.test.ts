import { beforeAll, describe, expect, it } from "vitest";
import {
  createMerchant,
  createTenant,
  newMember,
  PLATFORM,
  type TestTenant,
  unique,
} from "./support/builders";
import { call } from "./support/http";
import { mailTo, tokenIn } from "./support/mail";

// Each audited action of people, configuration, billing and the platform writes exactly one entry (a refused one
// none), in the chain of the database its change is on (docs/decisions/audit-log.md, "Audited actions").

interface Entry {
  chain: "platform" | "tenant";
  action: string;
  actor: { type: string; id: string | null };
  merchantId: string | null;
  target: { type: string; id: string | null };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

async function about(targetId: string, who: TestTenant = tenant) {
  const res = await call("GET", `/audit-events?limit=100&targetId=${encodeURIComponent(targetId)}`, {
    headers: who.admin,
  });
  expect(res.status).toBe(200);
  return (res.body.data as { items: Entry[] }).items;
}

const actions = (entries: Entry[]) => entries.map((e) => e.action).sort();

describe("audited actions", () => {
  it("people: invited, joined, restricted, demoted, removed; a revoked invitation; a refused change none", async () => {
    const merchantId = await createMerchant(tenant);
    const member = await newMember(tenant, "admin");
    expect(
      (
        await call("PUT", `/users/${member.id}`, {
          headers: tenant.admin,
          body: { role: "admin", merchantId },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call("PUT", `/users/${member.id}`, {
          headers: tenant.admin,
          body: { role: "viewer", merchantId },
        })
      ).status,
    ).toBe(200);
    // The same role again changes nothing and records nothing.
    await call("PUT", `/users/${member.id}`, { headers: tenant.admin, body: { role: "viewer", merchantId } });
    expect((await call("DELETE", `/users/${member.id}`, { headers: tenant.admin })).status).toBe(200);
    // Removing the last owner is refused: no entry.
    expect((await call("DELETE", `/users/${tenant.owner.id}`, { headers: tenant.admin })).status).toBe(409);
    expect(await about(tenant.owner.id).then((e) => e.filter((x) => x.action === "member.removed"))).toEqual(
      [],
    );

    const found = await about(member.id);
    expect(actions(found)).toEqual([
      "member.demoted",
      "member.joined",
      "member.removed",
      "member.restricted",
    ]);
    const restricted = found.find((e) => e.action === "member.restricted") as Entry;
    expect(restricted).toMatchObject({
      chain: "platform",
      merchantId,
      before: { role: "admin", merchantId: null },
      after: { role: "admin", merchantId },
    });
    expect(found.find((e) => e.action === "member.joined")?.actor).toMatchObject({
      type: "user",
      id: member.id,
    });

    const email = `invited-${unique()}@example.com`;
    const invited = await call("POST", "/users", { headers: tenant.admin, body: { email, role: "viewer" } });
    expect(invited.status).toBe(202);
    const token = tokenIn(await mailTo(email));
    const id = invited.body.data.id;
    expect((await call("DELETE", `/users/invitations/${id}`, { headers: tenant.admin })).status).toBe(200);
    // Revoking it again changes nothing.
    await call("DELETE", `/users/invitations/${id}`, { headers: tenant.admin });
    const invitation = await about(id);
    expect(actions(invitation)).toEqual(["invitation.revoked", "member.invited"]);
    expect(JSON.stringify(invitation)).not.toContain(token);
  });

  it("settings and carriers, with what they were before and never the carrier's secret", async () => {
    expect(
      (await call("PATCH", "/settings", { headers: tenant.admin, body: { currency: "GBP" } })).status,
    ).toBe(200);
    expect(
      (await call("PATCH", "/settings", { headers: tenant.admin, body: { currency: "USD" } })).status,
    ).toBe(200);
    const settings = (await call("GET", "/audit-events?action=settings.updated", { headers: tenant.admin }))
      .body.data as { items: Entry[] };
    expect(settings.items[0]).toMatchObject({
      chain: "tenant",
      before: { currency: "GBP" },
      after: { currency: "USD" },
    });

    const code = `c${unique()}`.slice(0, 20);
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const put = (url: string) =>
      call("PUT", `/settings/carriers/${code}`, {
        headers: tenant.admin,
        body: { adapter: "http", url, secret },
      });
    expect((await put("https://labels.example.com/a")).status).toBe(200);
    expect((await put("https://labels.example.com/b")).status).toBe(200);
    expect((await call("DELETE", `/settings/carriers/${code}`, { headers: tenant.admin })).status).toBe(200);
    expect((await call("DELETE", `/settings/carriers/${code}`, { headers: tenant.admin })).status).toBe(404);
    const carrier = await about(code);
    expect(actions(carrier)).toEqual(["carrier.deleted", "carrier.updated", "carrier.updated"]);
    const second = carrier.find((e) => e.after?.url === "https://labels.example.com/b");
    expect(second?.before).toEqual({ adapter: "http", url: "https://labels.example.com/a" });
    expect(JSON.stringify(carrier)).not.toContain(secret);
  });

  it("merchants, rate cards and invoices made and voided; a refused one none", async () => {
    const own = await createTenant();
    const made = await call("POST", "/merchants", {
      headers: own.admin,
      body: { code: `M${unique()}`.slice(0, 20), name: "Brand" },
    });
    expect(made.status).toBe(201);
    const merchantId = made.body.data.id;
    expect(
      (
        await call("PUT", `/merchants/${merchantId}`, {
          headers: own.admin,
          body: { code: made.body.data.code, name: "Brand 2" },
        })
      ).status,
    ).toBe(200);
    const card = await call("POST", "/billing/rate-cards", {
      headers: own.admin,
      body: {
        merchantId,
        currency: "EUR",
        effectiveFrom: "2026-01-01",
        rates: [{ activity: "minimum", per: "month", unitPrice: 10 }],
      },
    });
    expect(card.status).toBe(201);
    // The same day again is refused (409): no entry.
    const again = await call("POST", "/billing/rate-cards", {
      headers: own.admin,
      body: {
        merchantId,
        currency: "EUR",
        effectiveFrom: "2026-01-01",
        rates: [{ activity: "minimum", per: "month", unitPrice: 10 }],
      },
    });
    expect(again.status).toBe(409);
    const invoice = await call("POST", "/billing/invoices", {
      headers: own.admin,
      body: { merchantId, period: "2026-10" },
    });
    expect(invoice.status).toBe(201);
    expect(
      (await call("POST", `/billing/invoices/${invoice.body.data.id}/void`, { headers: own.admin })).status,
    ).toBe(200);

    expect(actions(await about(merchantId, own))).toEqual(["merchant.created", "merchant.updated"]);
    expect(await about(card.body.data.id, own).then(actions)).toEqual(["rate_card.created"]);
    const invoiceEntries = await about(invoice.body.data.id, own);
    expect(actions(invoiceEntries)).toEqual(["invoice.created", "invoice.voided"]);
    expect(invoiceEntries.every((e) => e.merchantId === merchantId && e.chain === "tenant")).toBe(true);
    expect(invoiceEntries.find((e) => e.action === "invoice.voided")?.after).toMatchObject({
      status: "voided",
    });

    // A key acting for the merchant refuses its deletion: no entry.
    await call("POST", "/api-keys", {
      headers: own.admin,
      body: { name: "brand", scopes: ["read:orders"], merchantId },
    });
    expect((await call("DELETE", `/merchants/${merchantId}`, { headers: own.admin })).status).toBe(409);
    const other = await createMerchant(own);
    expect((await call("DELETE", `/merchants/${other}`, { headers: own.admin })).status).toBe(200);
    expect(actions(await about(other, own))).toEqual(["merchant.created", "merchant.deleted"]);
    expect(actions(await about(merchantId, own))).not.toContain("merchant.deleted");
  });

  it("the platform's actions: a tenant made, its plan changed, a move started", async () => {
    const own = await createTenant({ plan: "starter" });
    const changed = await call("PATCH", `/platform/tenants/${own.id}`, {
      headers: PLATFORM,
      body: { plan: "business" },
    });
    expect(changed.status).toBe(200);
    const found = await about(own.id, own);
    expect(actions(found)).toEqual(["tenant.created", "tenant.updated"]);
    expect(found.find((e) => e.action === "tenant.updated")).toMatchObject({
      chain: "platform",
      actor: { type: "platform", id: null },
      before: { plan: "starter" },
      after: { plan: "business" },
    });
    expect(JSON.stringify(found)).not.toContain(own.adminKey);
  });
});
