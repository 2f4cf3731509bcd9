import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Scope, scopes } from "../src/auth/scopes";
import { startJob } from "../src/jobs/lifecycle";
import { deliver } from "../src/webhook-delivery/deliver";
import { fanOutEvent } from "../src/webhook-delivery/fan-out";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  type TestTenant,
  unique,
} from "./support/builders";
import { platformDatabase, tenantDatabase } from "./support/database";
import { call } from "./support/http";
import { mailTo, tokenIn } from "./support/mail";
import { stubReceiver } from "./support/webhook-receiver";

// Issue #44: random grant histories. Members of every role (some acting for one merchant), keys made by members
// and by keys, invitations, webhook subscriptions and jobs; then restrictions, demotions, removals, revocations
// and expiries in random order. After every step, each credential's effective rights, probed through real
// requests (what it reads and writes per merchant, whether it administers), each subscription's deliveries and
// each job's next step, are exactly what a model of its grantor chain's current rights allows: never more.

// The scope names are the API's own list; what each role and chain grants is the model's, written apart from src.
const ALL: Scope[] = [...scopes];
type Role = "owner" | "admin" | "manager" | "operator" | "viewer";
const ROLE_SCOPES: Record<Role, Scope[]> = {
  owner: ["admin"],
  admin: ["admin"],
  manager: [
    "read:products",
    "read:inventory",
    "read:orders",
    "write:products",
    "write:inventory",
    "write:orders",
  ],
  operator: ["read:products", "read:inventory", "read:orders", "write:inventory", "write:orders"],
  viewer: ["read:products", "read:inventory", "read:orders"],
};

/** Every scope `held` grants: admin grants all, write:X grants read:X. */
const closure = (held: readonly Scope[]): Set<Scope> =>
  new Set(
    held.includes("admin")
      ? ALL
      : held.flatMap((s) => (s.startsWith("write:") ? [s, s.replace("write:", "read:") as Scope] : [s])),
  );

/** The model's rights: granted scopes and merchant (null: the whole tenant), or none. */
type Model = { scopes: Set<Scope>; merchant: string | null } | null;

interface Member {
  id: string;
  role: Role;
  merchant: string | null;
  removed: boolean;
  headers: Record<string, string>;
}
interface Key {
  id: string;
  headers: Record<string, string>;
  scopes: Scope[];
  merchant: string | null;
  member: Member;
  /** The keys above it, its maker last. */
  grantors: Key[];
  revoked: boolean;
  expired: boolean;
}
type Credential = { member: Member } | { key: Key };
interface Invitation {
  token: string;
  email: string;
  role: Role;
  merchant: string | null;
  sender: Credential;
  used: boolean;
  /** Revoked: its sender lost the right to grant it at some step (never given back by a later step). */
  dead: boolean;
}
interface Subscription {
  id: string;
  url: string;
  creator: Credential;
  merchant: string | null;
  stopped: boolean;
}
interface Job {
  id: string;
  creator: Credential;
}

function memberModel(m: Member): Model {
  return m.removed ? null : { scopes: closure(ROLE_SCOPES[m.role]), merchant: m.merchant };
}

function keyModel(k: Key): Model {
  if ([k, ...k.grantors].some((g) => g.revoked || g.expired)) return null;
  const creator = memberModel(k.member);
  if (!creator) return null;
  if (k.merchant && creator.merchant && k.merchant !== creator.merchant) return null;
  const own = closure(k.scopes);
  return {
    scopes: new Set([...own].filter((s) => creator.scopes.has(s))),
    merchant: k.merchant ?? creator.merchant,
  };
}

const modelOf = (c: Credential): Model => ("member" in c ? memberModel(c.member) : keyModel(c.key));
const headersOf = (c: Credential) => ("member" in c ? c.member.headers : c.key.headers);
const isKey = (c: Credential) => "key" in c;
/** Whether `model` administers the tenant (people, keys): admin over the whole tenant. */
const administers = (model: Model) => !!model && model.merchant === null && model.scopes.has("admin");

const role = fc.constantFrom<Role>("admin", "manager", "operator", "viewer");
const merchantPick = fc.constantFrom<0 | 1 | null>(null, 0, 1);
const scopesPick = fc.subarray(ALL, { minLength: 1 });
const action = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("member" as const), role, merchant: merchantPick }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("memberKey" as const),
      who: fc.nat(),
      scopes: scopesPick,
      merchant: merchantPick,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("keyKey" as const),
      who: fc.nat(),
      scopes: scopesPick,
      merchant: merchantPick,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("invite" as const),
      who: fc.nat(),
      role,
      merchant: merchantPick,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("accept" as const), which: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("subscribe" as const), who: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("job" as const), who: fc.nat() }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("restrict" as const), who: fc.nat(), merchant: merchantPick }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("demote" as const), who: fc.nat(), role }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("remove" as const), who: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("revoke" as const), which: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("expire" as const), which: fc.nat() }) },
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

/**
 * Every history starts from a tenant-wide admin who made one of each thing: a key, a key made with that key, an
 * invitation, a subscription (by the key) and a job; the random steps then grant and take away around them.
 * (Indexes: members are [owner, ...members], keys [owner's key, ...keys], credentials [owner, owner's key,
 * ...members, ...keys].)
 */
const start: Action[] = [
  { kind: "member", role: "admin", merchant: null },
  { kind: "memberKey", who: 1, scopes: ["admin"], merchant: null },
  { kind: "keyKey", who: 1, scopes: ["admin"], merchant: null },
  { kind: "invite", who: 2, role: "admin", merchant: null },
  { kind: "subscribe", who: 3 },
  { kind: "job", who: 2 },
];

const pick = <T>(items: readonly T[], n: number): T | undefined => items[n % Math.max(items.length, 1)];

/** One world: a tenant with two merchants, a product of each and one of the tenant's own. */
async function world() {
  const t = await createTenant();
  const merchants: string[] = [];
  for (const code of ["M0", "M1"]) {
    const res = await call("POST", "/merchants", {
      headers: t.admin,
      body: { code: `${code}-${unique()}`, name: code },
    });
    merchants.push(res.body.data.id);
  }
  const warehouse = await createWarehouse(t);
  const bin = await createLocation(t, warehouse.id);
  const products = [
    { id: (await createProduct(t)).id, merchant: null as string | null },
    { id: (await createProduct(t, { merchantId: merchants[0] })).id, merchant: merchants[0] as string },
    { id: (await createProduct(t, { merchantId: merchants[1] })).id, merchant: merchants[1] as string },
  ];
  for (const p of products) await adjustStock(t, p.id, bin.id, 1);
  const owner: Member = {
    id: t.owner.id,
    role: "owner",
    merchant: null,
    removed: false,
    headers: await (async () => {
      const res = await call("POST", "/auth/login", {
        body: { email: t.owner.email, password: t.owner.password },
      });
      return { authorization: `Bearer ${res.body.data.token}`, "x-tenant-id": t.id };
    })(),
  };
  const me = await call("GET", "/auth/me", { headers: t.admin });
  const ownerKeyId = me.body.data.type === "api_key" ? me.body.data.apiKey.id : "";
  return { t, merchants, products, owner, ownerKeyId };
}

type World = Awaited<ReturnType<typeof world>>;

/** Joins with the mailed token; the member as the model knows them (none when refused). */
async function join(t: TestTenant, token: string, r: Role, merchant: string | null) {
  const res = await call("POST", "/auth/invitations/accept", {
    body: { token, password: "member-password-1", name: "Member" },
  });
  if (res.status !== 200 || !("user" in res.body.data)) return { res };
  const member: Member = {
    id: res.body.data.user.id,
    role: r,
    merchant,
    removed: false,
    headers: { authorization: `Bearer ${res.body.data.token}`, "x-tenant-id": t.id },
  };
  return { res, member };
}

/** What a credential actually does now, against what its model allows. */
async function probe(w: World, c: Credential, what: string) {
  const model = modelOf(c);
  const headers = headersOf(c);
  const lostStatus = isKey(c) ? 401 : 403;
  const read = await call("GET", "/products?pageSize=100", { headers });
  if (!model) expect(read.status, `${what}: reads with no rights`).toBe(lostStatus);
  else if (!model.scopes.has("read:products")) expect(read.status, what).toBe(403);
  else {
    expect(read.status, what).toBe(200);
    const seen = (read.body.data.items as { id: string }[]).map((p) => p.id).sort();
    const allowed = w.products.filter((p) => model.merchant === null || p.merchant === model.merchant);
    expect(seen, `${what}: the products it reads`).toEqual(allowed.map((p) => p.id).sort());
  }
  for (const product of w.products.slice(1)) {
    const write = await call("PUT", `/products/${product.id}`, { headers, body: { name: "Widget" } });
    const whatWrite = `${what}: writes ${product.merchant}'s product`;
    if (!model) expect(write.status, whatWrite).toBe(lostStatus);
    else if (!model.scopes.has("write:products")) expect(write.status, whatWrite).toBe(403);
    else if (model.merchant !== null && model.merchant !== product.merchant)
      expect(write.status, whatWrite).toBe(404);
    else expect(write.status, whatWrite).toBe(200);
  }
  const people = await call("GET", "/users", { headers });
  expect(people.status, `${what}: administers`).toBe(administers(model) ? 200 : !model ? lostStatus : 403);
}

/** An event about `product` (stamped with its merchant), fanned out and delivered now; the URLs that got it. */
async function deliverAbout(w: World, product: { id: string; merchant: string | null }) {
  const db = await tenantDatabase(w.t.id);
  const eventId = crypto.randomUUID();
  const now = new Date().toISOString();
  await db
    .prepare(
      `insert into outbox_events (id, tenant_id, type, payload, merchant_id, created_at, dispatched_at, seq)
       values (?, ?, 'product.updated', ?, ?, ?, ?, (select coalesce(max(seq), 0) + 1 from outbox_events where tenant_id = ?2))`,
    )
    .bind(eventId, w.t.id, JSON.stringify({ id: product.id }), product.merchant, now, now)
    .run();
  const deliveries: string[] = [];
  await fanOutEvent(env, w.t.id, eventId, undefined, async (_env, _tenant, ids) => {
    deliveries.push(...ids);
  });
  const { received, spy } = stubReceiver();
  for (const id of deliveries) await deliver(env, w.t.id, id);
  spy.mockRestore();
  return received.map((r) => r.url);
}

describe("rights follow their grantor chain (property)", () => {
  it(
    "after every step of a random grant history, no credential, subscription or job does more than its chain allows now",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(action, { minLength: 3, maxLength: 8 }), async (steps) => {
          const actions = [...start, ...steps];
          const w = await world();
          const members: Member[] = [];
          const keys: Key[] = [];
          const invitations: Invitation[] = [];
          const subscriptions: Subscription[] = [];
          const jobs: Job[] = [];
          const ownerKey: Key = {
            id: w.ownerKeyId,
            headers: w.t.admin,
            scopes: ["admin"],
            merchant: null,
            member: w.owner,
            grantors: [],
            revoked: false,
            expired: false,
          };
          const credentials = (): Credential[] => [
            { member: w.owner },
            { key: ownerKey },
            ...members.map((member) => ({ member })),
            ...keys.map((key) => ({ key })),
          ];
          const merchantOf = (m: 0 | 1 | null) => (m === null ? null : (w.merchants[m] as string));

          const step = async (a: Action) => {
            switch (a.kind) {
              case "member": {
                const email = `m-${unique()}@example.com`;
                const merchant = merchantOf(a.merchant);
                const sent = await call("POST", "/users", {
                  headers: w.t.admin,
                  body: { email, role: a.role, merchantId: merchant },
                });
                expect(sent.status).toBe(202);
                const { member } = await join(w.t, tokenIn(await mailTo(email)), a.role, merchant);
                if (!member) throw new Error("the owner's invitation was accepted");
                members.push(member);
                return;
              }
              case "memberKey":
              case "keyKey": {
                const maker: Credential | undefined =
                  a.kind === "memberKey"
                    ? (() => {
                        const m = pick([w.owner, ...members], a.who);
                        return m && { member: m };
                      })()
                    : (() => {
                        const k = pick([ownerKey, ...keys], a.who);
                        return k && { key: k };
                      })();
                if (!maker) return;
                const merchant = merchantOf(a.merchant);
                const res = await call("POST", "/api-keys", {
                  headers: headersOf(maker),
                  body: { name: "k", scopes: a.scopes, ...(merchant ? { merchantId: merchant } : {}) },
                });
                const model = modelOf(maker);
                const allowed = administers(model) && a.scopes.every((s) => model?.scopes.has(s));
                expect(res.status, `key made by ${JSON.stringify(a)}`).toBe(
                  allowed ? 201 : !model && isKey(maker) ? 401 : 403,
                );
                if (res.status !== 201) return;
                keys.push({
                  id: res.body.data.id,
                  headers: { "x-api-key": res.body.data.key },
                  scopes: a.scopes,
                  merchant,
                  member: "member" in maker ? maker.member : maker.key.member,
                  grantors: "key" in maker ? [...maker.key.grantors, maker.key] : [],
                  revoked: false,
                  expired: false,
                });
                return;
              }
              case "invite": {
                const sender = pick(credentials(), a.who);
                if (!sender) return;
                const email = `i-${unique()}@example.com`;
                const merchant = merchantOf(a.merchant);
                const res = await call("POST", "/users", {
                  headers: headersOf(sender),
                  body: { email, role: a.role, merchantId: merchant },
                });
                const model = modelOf(sender);
                expect(res.status, `invitation by ${JSON.stringify(a)}`).toBe(
                  administers(model) ? 202 : !model && isKey(sender) ? 401 : 403,
                );
                if (res.status === 202)
                  invitations.push({
                    token: tokenIn(await mailTo(email)),
                    email,
                    role: a.role,
                    merchant,
                    sender,
                    used: false,
                    dead: false,
                  });
                return;
              }
              case "accept": {
                const invitation = pick(
                  invitations.filter((i) => !i.used),
                  a.which,
                );
                if (!invitation) return;
                invitation.used = true;
                const { res, member } = await join(
                  w.t,
                  invitation.token,
                  invitation.role,
                  invitation.merchant,
                );
                // Accepted only while its sender may still grant it: the same rule as sending it.
                expect(
                  res.status,
                  `acceptance of ${invitation.role} sent by ${JSON.stringify(modelOf(invitation.sender))}`,
                ).toBe(invitation.dead || !administers(modelOf(invitation.sender)) ? 404 : 200);
                if (member) members.push(member);
                return;
              }
              case "subscribe": {
                const creator = pick(credentials(), a.who);
                if (!creator) return;
                const url = `https://hooks.example.com/${unique()}`;
                const res = await call("POST", "/webhooks", {
                  headers: headersOf(creator),
                  body: { url, events: ["*"] },
                });
                const model = modelOf(creator);
                expect(res.status, `subscription by ${JSON.stringify(model)}`).toBe(
                  model?.scopes.has("admin") ? 201 : !model && isKey(creator) ? 401 : 403,
                );
                if (res.status === 201)
                  subscriptions.push({
                    id: res.body.data.id,
                    url,
                    creator,
                    merchant: model?.merchant ?? null,
                    stopped: false,
                  });
                return;
              }
              case "job": {
                const creator = pick(credentials(), a.who);
                if (!creator) return;
                // Stored as POST /jobs stores it; its steps are run by the test, one per check below.
                const [actorType, actorId] =
                  "member" in creator ? ["user", creator.member.id] : ["api_key", creator.key.id];
                const id = crypto.randomUUID();
                const db = await tenantDatabase(w.t.id);
                await db
                  .prepare(
                    `insert into jobs (id, tenant_id, type, status, options, actor_type, actor_id, request_id, created_at)
                     values (?, ?, 'products_export', 'queued', '{}', ?, ?, 'property', ?)`,
                  )
                  .bind(id, w.t.id, actorType, actorId, new Date().toISOString())
                  .run();
                jobs.push({ id, creator });
                return;
              }
              case "restrict":
              case "demote": {
                const member = pick(members, a.who);
                if (!member || member.removed) return;
                const next =
                  a.kind === "restrict"
                    ? { role: member.role, merchant: merchantOf(a.merchant) }
                    : { role: a.role, merchant: member.merchant };
                const res = await call("PUT", `/users/${member.id}`, {
                  headers: w.t.admin,
                  body: { role: next.role, merchantId: next.merchant },
                });
                expect(res.status).toBe(200);
                member.role = next.role;
                member.merchant = next.merchant;
                return;
              }
              case "remove": {
                const member = pick(members, a.who);
                if (!member || member.removed) return;
                expect((await call("DELETE", `/users/${member.id}`, { headers: w.t.admin })).status).toBe(
                  200,
                );
                member.removed = true;
                return;
              }
              case "revoke":
              case "expire": {
                const key = pick(keys, a.which);
                if (!key) return;
                if (a.kind === "revoke") {
                  expect((await call("DELETE", `/api-keys/${key.id}`, { headers: w.t.admin })).status).toBe(
                    200,
                  );
                  key.revoked = true;
                } else {
                  // Time passing beyond its expiry.
                  await platformDatabase()
                    .prepare("update api_keys set expires_at = ? where id = ?")
                    .bind(new Date(Date.now() - 1000).toISOString(), key.id)
                    .run();
                  key.expired = true;
                }
                return;
              }
            }
          };

          const check = async (after: string) => {
            for (const c of credentials())
              await probe(w, c, `${after}, ${"member" in c ? `member ${c.member.role}` : "key"}`);
            for (const product of w.products) {
              const urls = await deliverAbout(w, product);
              for (const s of subscriptions) {
                const model = modelOf(s.creator);
                // A creator that no longer covers the subscription stops it for good at its next delivery.
                const covered = model && (model.merchant === null || model.merchant === s.merchant);
                const wants = s.merchant === null || s.merchant === product.merchant;
                if (wants && !covered) s.stopped = true;
                const expected = !s.stopped && wants && !!covered && model.scopes.has("read:products");
                expect(
                  urls.includes(s.url),
                  `${after}: subscription of ${JSON.stringify(s.merchant)} gets ${product.merchant}'s event`,
                ).toBe(expected);
              }
            }
            for (const job of jobs) {
              const model = modelOf(job.creator);
              const mayRun = !!model && model.merchant === null && model.scopes.has("read:products");
              const ran = await startJob(env, w.t.id, job.id).then(
                () => true,
                (error: Error) => {
                  expect(error.message).toContain("The job stopped");
                  return false;
                },
              );
              expect(ran, `${after}: a job's step by ${JSON.stringify(model)}`).toBe(mayRun);
            }
          };

          for (const [i, a] of actions.entries()) {
            await step(a);
            for (const invitation of invitations) {
              if (!administers(modelOf(invitation.sender))) invitation.dead = true;
            }
            await check(`after step ${i} (${a.kind})`);
          }
        }),
        { numRuns: 6 },
      );
    },
    15 * 60_000,
  );
});
