import { describe, expect, it } from "vitest";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  newMember,
  seedLocation,
  seedStockedProducts,
  seedWarehouse,
  type TestTenant,
  unique,
  whoAmI,
} from "./support/builders";
import { call } from "./support/http";
import { mailCount, mailTo, tokenIn } from "./support/mail";

// Issue #44, a 3PL's identity: what a merchant's credential creates touches its own goods only, a merchant's SKUs
// and barcodes are its own (no other brand's catalogue shows through a conflict), and a merchant is not deleted
// while something still acts for it.

type Headers = Record<string, string>;

async function merchant(t: TestTenant) {
  const code = `M-${unique()}`;
  const res = await call("POST", "/merchants", { headers: t.admin, body: { code, name: code } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

async function merchantKey(
  t: TestTenant,
  merchantId: string,
  scopes = ["write:products", "write:inventory", "write:orders"],
) {
  const res = await call("POST", "/api-keys", {
    headers: t.admin,
    body: { name: "brand", scopes, merchantId },
  });
  expect(res.status).toBe(201);
  return { id: res.body.data.id as string, headers: { "x-api-key": res.body.data.key as string } as Headers };
}

const restrict = (t: TestTenant, userId: string, merchantId: string | null, role: string) =>
  call("PUT", `/users/${userId}`, { headers: t.admin, body: { role, merchantId } });

async function invite(headers: Headers, body: Record<string, unknown>) {
  const email = `invitee-${unique()}@example.com`;
  const before = mailCount(email);
  const res = await call("POST", "/users", { headers, body: { email, ...body } });
  return { res, email, token: res.status === 202 ? tokenIn(await mailTo(email, before)) : "" };
}

describe("a merchant's count of a warehouse (POST /inventory/counts {warehouseId})", () => {
  it("attack: snapshots only its own goods, which alone weigh against the size limit, and it can read the count", async () => {
    const t = await createTenant();
    const m = await merchant(t);
    // The tenant's other goods fill the warehouse past what one count holds (2,000 lines).
    const warehouseId = await seedWarehouse(t);
    await seedStockedProducts(t, await seedLocation(t, warehouseId), 2001, () => 3);
    const bin = await createLocation(t, warehouseId);
    const own = await createProduct(t, { merchantId: m });
    await adjustStock(t, own.id, bin.id, 4);
    const brand = await merchantKey(t, m);

    const count = await call("POST", "/inventory/counts", { headers: brand.headers, body: { warehouseId } });
    expect(count.status, JSON.stringify(count.body)).toBe(201);
    expect(count.body.data.lines.map((l: { productId: string }) => l.productId)).toEqual([own.id]);
    expect(count.body.data.productIds).toEqual([own.id]);
    expect(
      (await call("GET", `/inventory/counts/${count.body.data.id}`, { headers: brand.headers })).status,
    ).toBe(200);
    // The tenant's own count of that warehouse is still too large: the limit is unchanged.
    const whole = await call("POST", "/inventory/counts", { headers: t.admin, body: { warehouseId } });
    expect(whole.status).toBe(400);
  });

  it("is a 409 when nothing of its own is on hand there", async () => {
    const t = await createTenant();
    const m = await merchant(t);
    const warehouse = await createWarehouse(t);
    const bin = await createLocation(t, warehouse.id);
    await adjustStock(t, (await createProduct(t)).id, bin.id, 2);
    const brand = await merchantKey(t, m);
    const count = await call("POST", "/inventory/counts", {
      headers: brand.headers,
      body: { warehouseId: warehouse.id },
    });
    expect(count.status).toBe(409);
    expect(count.body.errors).toEqual([
      "productIds: no product of this merchant has stock in this scope; name productIds to count them",
    ]);
  });
});
describe("DELETE /merchants/{id} while something acts for it", () => {
  it("attack: is refused (409 naming each key, member and invitation) until none is left", async () => {
    const t = await createTenant();
    const m = await merchant(t);
    const key = await call("POST", "/api-keys", {
      headers: t.admin,
      body: { name: "brand feed", scopes: ["read:products"], merchantId: m },
    });
    const member = await newMember(t, "viewer");
    expect((await restrict(t, member.id, m, "viewer")).status).toBe(200);
    const sent = await invite(t.admin, { role: "viewer", merchantId: m });

    const refused = await call("DELETE", `/merchants/${m}`, { headers: t.admin });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      `apiKeys: brand feed (${key.body.data.id}) acts for this merchant`,
      `users: ${member.email} (${member.id}) acts for this merchant`,
      `invitations: ${sent.email} (${sent.res.body.data.id}) is invited to act for this merchant`,
    ]);
    const keyHeaders = { "x-api-key": key.body.data.key as string };
    expect((await whoAmI(keyHeaders, "api_key")).apiKey.merchantId).toBe(m);

    expect((await call("DELETE", `/api-keys/${key.body.data.id}`, { headers: t.admin })).status).toBe(200);
    expect((await restrict(t, member.id, null, "viewer")).status).toBe(200);
    expect(
      (await call("DELETE", `/users/invitations/${sent.res.body.data.id}`, { headers: t.admin })).status,
    ).toBe(200);
    expect((await call("DELETE", `/merchants/${m}`, { headers: t.admin })).status).toBe(200);
    expect((await call("GET", "/auth/me", { headers: keyHeaders })).status).toBe(401);
  });
});
