// The same-work anchor (issue #35): no framework, no validation, no envelope; only the D1 work each
// request cannot do without, on the API's own schema. What the API does beyond this is its overhead.
// - POST /adjust: the key lookup by hash, then ONE batch: the level's conditional update, its ledger row,
//   its outbox row (the level's CHECKs roll a removal past zero back).
// - POST /orders: the key lookup, then ONE batch: the counter, the order, its lines, each line's
//   reservation (the reserved <= on_hand CHECK guards it), the reservation rows, the history row, the outbox row.
// - GET /products: the key lookup alongside ONE batch: the page of 20 and the tenant's product count.
// - POST /seed: a tenant with a key, a location and 100 stocked products (the benchmark's setup, not measured).

interface Env {
  PLATFORM: D1Database;
  SHARD_0: D1Database;
}

interface Key {
  id: string;
  scopes: string;
  revoked_at: string | null;
  expires_at: string | null;
  creator_role: string | null;
  tenant_id: string;
  plan: string;
  status: string;
}

async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The API's key lookup: the key, its tenant and its creator's role, by the key's hash. */
async function lookUpKey(env: Env, hash: string): Promise<Key | null> {
  const key = await env.PLATFORM.prepare(
    `select k.id, k.scopes, k.revoked_at, k.expires_at, m.role as creator_role, t.id as tenant_id, t.plan, t.status
     from api_keys k join tenants t on t.id = k.tenant_id
     left join memberships m on m.tenant_id = k.tenant_id and m.user_id = k.created_by
     where k.key_hash = ? limit 1`,
  )
    .bind(hash)
    .first<Key>();
  return key && !key.revoked_at && key.creator_role && key.status === "active" ? key : null;
}

const keyHashOf = (request: Request) => sha256Hex(request.headers.get("x-api-key") ?? "");

/** Each key's tenant as its last lookup said, by hash: where a read starts while its own lookup runs. */
const rememberedTenants = new Map<string, string>();

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

const unauthorized = () => json({ error: { code: "UNAUTHORIZED" } }, 401);

async function adjust(env: Env, request: Request): Promise<Response> {
  const key = await lookUpKey(env, await keyHashOf(request));
  if (!key) return unauthorized();
  const input = await request.json<{
    productId: string;
    locationId: string;
    quantity: number;
    reason: string;
  }>();
  const tenant = key.tenant_id;
  const now = new Date().toISOString();
  const movementId = crypto.randomUUID();
  const level = "tenant_id = ?1 and product_id = ?2 and location_id = ?3 and lot_id = ''";
  const db = env.SHARD_0;
  const [updated, movement] = await db.batch<Record<string, unknown>>([
    db
      .prepare(`update stock_levels set on_hand = on_hand + ?4, updated_at = ?5 where ${level} returning *`)
      .bind(tenant, input.productId, input.locationId, input.quantity, now),
    db
      .prepare(
        `insert into stock_movements (id, tenant_id, product_id, location_id, lot_id, warehouse_id, delta, on_hand_after,
           reason, actor_type, actor_id, created_at)
         select ?4, tenant_id, product_id, location_id, lot_id, warehouse_id, ?5, on_hand, ?6, 'api_key', ?7, ?8
         from stock_levels where ${level} returning *`,
      )
      .bind(tenant, input.productId, input.locationId, movementId, input.quantity, input.reason, key.id, now),
    db
      .prepare(
        `insert into outbox_events (id, tenant_id, type, payload, created_at, seq)
         select ?4, ?1, 'inventory.adjusted', json_object('movementId', ?5, 'productId', ?2, 'delta', ?6,
           'reason', ?7, 'stockLevel', json_object('locationId', location_id, 'onHand', on_hand, 'reserved', reserved,
           'available', on_hand - reserved)),
           ?8, (select coalesce(max(seq), 0) + 1 from outbox_events where tenant_id = ?1)
         from stock_levels where ${level}`,
      )
      .bind(
        tenant,
        input.productId,
        input.locationId,
        crypto.randomUUID(),
        movementId,
        input.quantity,
        input.reason,
        now,
      ),
  ]);
  const stockLevel = updated?.results[0];
  if (!stockLevel) return json({ error: { code: "CONFLICT" } }, 409);
  return json({ data: { movement: movement?.results[0], stockLevel } }, 201);
}

async function createOrder(env: Env, request: Request): Promise<Response> {
  const key = await lookUpKey(env, await keyHashOf(request));
  if (!key) return unauthorized();
  const input = await request.json<{
    customerId: string;
    lines: { productId: string; quantity: number; price: number }[];
    shippingAddress: unknown;
  }>();
  const tenant = key.tenant_id;
  const now = new Date().toISOString();
  const orderId = crypto.randomUUID();
  const lines = input.lines.map((line, i) => ({
    id: crypto.randomUUID(),
    lineNo: i + 1,
    ...line,
    priceE4: Math.round(line.price * 10_000),
  }));
  const totalE4 = lines.reduce((sum, line) => sum + line.priceE4 * line.quantity, 0);
  const record = {
    id: orderId,
    type: "sales",
    status: "pending",
    customerId: input.customerId,
    lines,
    createdAt: now,
  };
  const db = env.SHARD_0;
  // The level a line reserves at: the product's level with the most available (an allocation in SQL).
  const levelOf =
    "(select rowid from stock_levels where tenant_id = ?1 and product_id = ?2 order by on_hand - reserved desc limit 1)";
  const results = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `insert into order_counters (tenant_id, type, value) values (?1, 'sales', 1)
         on conflict (tenant_id, type) do update set value = value + 1`,
      )
      .bind(tenant),
    db
      .prepare(
        `insert into orders (id, tenant_id, number, type, status, customer_id, shipping_address, total_e4, created_by,
           created_at, updated_at)
         select ?2, ?1, 'SO-' || printf('%06d', value), 'sales', 'pending', ?3, ?4, ?5, ?6, ?7, ?7
         from order_counters where tenant_id = ?1 and type = 'sales' returning number`,
      )
      .bind(tenant, orderId, input.customerId, JSON.stringify(input.shippingAddress), totalE4, key.id, now),
    db
      .prepare(
        `insert into order_lines (id, tenant_id, order_id, line_no, product_id, quantity, unit_price_e4)
         select value ->> 'id', ?1, ?2, value ->> 'lineNo', value ->> 'productId', value ->> 'quantity', value ->> 'priceE4'
         from json_each(?3)`,
      )
      .bind(tenant, orderId, JSON.stringify(lines)),
    ...lines.flatMap((line) => [
      db
        .prepare(
          `insert into order_reservations (tenant_id, order_id, line_id, product_id, location_id, lot_id, quantity)
           select ?1, ?3, ?4, product_id, location_id, lot_id, ?5 from stock_levels where rowid = ${levelOf}`,
        )
        .bind(tenant, line.productId, orderId, line.id, line.quantity),
      db
        .prepare(`update stock_levels set reserved = reserved + ?3, updated_at = ?4 where rowid = ${levelOf}`)
        .bind(tenant, line.productId, line.quantity, now),
    ]),
    db
      .prepare(
        `insert into order_status_history (id, tenant_id, order_id, from_status, to_status, actor_type, actor_id, created_at)
         values (?1, ?2, ?3, null, 'pending', 'api_key', ?4, ?5)`,
      )
      .bind(crypto.randomUUID(), tenant, orderId, key.id, now),
    db
      .prepare(
        `insert into outbox_events (id, tenant_id, type, payload, created_at, seq)
         values (?1, ?2, 'order.created', json_set(?3, '$.number', (select number from orders where id = ?4)), ?5,
           (select coalesce(max(seq), 0) + 1 from outbox_events where tenant_id = ?2))`,
      )
      .bind(crypto.randomUUID(), tenant, JSON.stringify(record), orderId, now),
  ]);
  const number = results[1]?.results[0]?.number;
  return json({ data: { ...record, number } }, 201);
}

async function listProducts(env: Env, request: Request): Promise<Response> {
  const pageSize = Number(new URL(request.url).searchParams.get("pageSize") ?? 20);
  const hash = await keyHashOf(request);
  const keyLookup = lookUpKey(env, hash);
  // A key seen before reads alongside its lookup, as the API does: one round trip for both.
  const tenant = rememberedTenants.get(hash) ?? (await keyLookup)?.tenant_id;
  if (!tenant) return unauthorized();
  const db = env.SHARD_0;
  const page = db.batch<Record<string, unknown>>([
    db
      .prepare("select * from products where tenant_id = ?1 order by created_at desc, id desc limit ?2")
      .bind(tenant, pageSize),
    db.prepare("select count from product_counts where tenant_id = ?1").bind(tenant),
  ]);
  const [key, [rows, total]] = await Promise.all([keyLookup, page]);
  if (!key || key.tenant_id !== tenant) {
    rememberedTenants.delete(hash);
    return unauthorized();
  }
  rememberedTenants.set(hash, tenant);
  return json({ data: { items: rows?.results, totalCount: total?.results[0]?.count, page: 1, pageSize } });
}

/** A tenant (Enterprise: no rate limit on either side), its owner, a key, a location and 100 stocked products. */
async function seed(env: Env, request: Request): Promise<Response> {
  const { key } = await request.json<{ key: string }>();
  const now = new Date().toISOString();
  const tenant = crypto.randomUUID();
  const user = crypto.randomUUID();
  await env.PLATFORM.batch([
    env.PLATFORM.prepare(
      "insert into tenants (id, name, plan, status, shard, created_at, updated_at) values (?1, 'Anchor', 'enterprise', 'active', 'SHARD_0', ?2, ?2)",
    ).bind(tenant, now),
    env.PLATFORM.prepare(
      "insert into users (id, email, name, password_hash, password_salt, password_iterations, created_at, updated_at) values (?1, ?2, 'Anchor', '-', '-', 1, ?3, ?3)",
    ).bind(user, `${user}@example.com`, now),
    env.PLATFORM.prepare(
      "insert into memberships (tenant_id, user_id, role, created_at, updated_at) values (?1, ?2, 'owner', ?3, ?3)",
    ).bind(tenant, user, now),
    env.PLATFORM.prepare(
      `insert into api_keys (id, tenant_id, name, prefix, key_hash, scopes, created_by, created_at)
       values (?1, ?2, 'anchor', ?3, ?4, '["admin"]', ?5, ?6)`,
    ).bind(crypto.randomUUID(), tenant, key.slice(0, 13), await sha256Hex(key), user, now),
  ]);
  const warehouse = crypto.randomUUID();
  const location = crypto.randomUUID();
  const productIds = Array.from({ length: 100 }, () => crypto.randomUUID());
  const db = env.SHARD_0;
  await db.batch([
    db
      .prepare(
        "insert into warehouses (id, tenant_id, code, name, created_at, updated_at) values (?1, ?2, 'WH', 'Anchor', ?3, ?3)",
      )
      .bind(warehouse, tenant, now),
    db
      .prepare(
        "insert into locations (id, tenant_id, warehouse_id, code, name, type, created_at, updated_at) values (?1, ?2, ?3, 'A-1', 'A-1', 'bin', ?4, ?4)",
      )
      .bind(location, tenant, warehouse, now),
    db
      .prepare(
        `insert into products (id, tenant_id, sku, name, price_e4, created_at, updated_at)
         select value, ?1, 'SKU-' || key, 'Anchor product ' || key, 99900, ?2, ?2 from json_each(?3)`,
      )
      .bind(tenant, now, JSON.stringify(productIds)),
    db
      .prepare(
        `insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, on_hand, reserved, updated_at)
         select ?1, value, ?2, ?3, 1000000000 / 2, 0, ?4 from json_each(?5)`,
      )
      .bind(tenant, location, warehouse, now, JSON.stringify(productIds)),
  ]);
  return json({ tenant, location, productIds }, 201);
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (request.method === "POST" && pathname === "/adjust") return adjust(env, request);
    if (request.method === "POST" && pathname === "/orders") return createOrder(env, request);
    if (request.method === "GET" && pathname === "/products") return listProducts(env, request);
    if (request.method === "POST" && pathname === "/seed") return seed(env, request);
    if (pathname === "/ready") return new Response("ok");
    return new Response("not found", { status: 404 });
  },
} satisfies ExportedHandler<Env>;
