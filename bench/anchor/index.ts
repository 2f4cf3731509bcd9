// The same-work anchor (issue #35): no framework, no validation, no envelope; only the D1 work each
// request cannot do without, on the API's own schema. What the API does beyond this is its overhead.
// - POST /adjust: the key lookup by hash, then ONE batch: the level's conditional update, its ledger row,
//   its outbox row (the level's CHECKs roll a removal past zero back).
// - POST /orders: the key lookup, then ONE batch: the counter, the order, its lines, each line's
//   reservation (the reserved <= on_hand CHECK guards it), the reservation rows, the history row, the outbox row.
// - GET /products: the key lookup alongside ONE batch: the page of 20 and the tenant's product count.
// - GET /me: the key lookup (key, tenant and creator's role in one statement), answered from it.
// - POST /pick-lists/:id/picks: the key lookup, ONE read of the picked line (with its product's SKU, its bin's
//   code and the warehouse's packing location, so the scan is checked), then ONE batch, every statement guarded
//   by "list active, line open, order picking": the order's version, the bin's level and ledger row, the packing
//   location's level, ledger row and reservation, the bin's reservation, the pick row, the line (its CHECK stops
//   an over-pick), the list's progress and completion event, and the list as answered.
// - POST /orders/:id/shipments: the key lookup, ONE batch read of the order (row, lines, reservations, history,
//   earlier shipments: the events carry the whole order), the SSCC counter's upsert (as the API's: the package's
//   SSCC is known before the batch), then ONE batch guarded by the order's version: the shipment, its packages,
//   package lines and stock rows, each stock row's level and ledger row and reservation, the lines' shipped
//   quantities, the status history, the order's events and the version bump.
// - POST /import-chunk: a stock import's chunk of rows (SKU, location code, quantity, reason): the key lookup, ONE
//   read resolving every row's product and location, then ONE batch of multi-row statements (levels, ledger rows,
//   an inventory.adjusted event per row) with the chunk's record, refused once the job is no longer running.
// - POST /seed: a tenant with a key, a location and 100 stocked products (the benchmark's setup, not measured).
// - POST /seed-import: `count` products B-000000... and a running stock_import job (the import's setup).
// - POST /seed-shipments: `count` confirmed one-line sales orders of one product, reserved (a shipment's setup).
// - POST /seed-pick: a packing location, a sales order `picking` of the given products and its pick list.

interface Env {
  PLATFORM: D1Database;
  SHARD_0: D1Database;
}

interface Key {
  id: string;
  name: string;
  merchant_id: string | null;
  tenant_name: string;
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
    `select k.id, k.name, k.scopes, k.merchant_id, k.revoked_at, k.expires_at, m.role as creator_role, t.id as tenant_id,
       t.name as tenant_name, t.plan, t.status
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

async function me(env: Env, request: Request): Promise<Response> {
  const key = await lookUpKey(env, await keyHashOf(request));
  if (!key) return unauthorized();
  return json({
    data: {
      type: "api_key",
      apiKey: { id: key.id, scopes: JSON.parse(key.scopes), merchantId: key.merchant_id },
      tenant: { id: key.tenant_id, name: key.tenant_name, plan: key.plan, status: key.status },
    },
  });
}

interface PickedLine {
  order_id: string;
  order_line_id: string;
  product_id: string;
  location_id: string;
  lot_id: string;
  warehouse_id: string;
  sku: string;
  location_code: string;
  packing_id: string | null;
  remaining: number;
}

/** The pick list as the API answers it, with its lines, built in SQL from what the batch committed. */
const pickListJson = `select json_object('id', p.id, 'warehouseId', p.warehouse_id, 'status', p.status,
    'orderIds', json(p.order_ids), 'createdAt', p.created_at, 'updatedAt', p.updated_at,
    'completedAt', p.completed_at, 'cancelledAt', p.cancelled_at,
    'lines', (select json_group_array(json(line)) from (select json_object('id', l.id, 'lineNo', l.line_no,
        'orderId', l.order_id, 'orderLineId', l.order_line_id, 'productId', l.product_id, 'sku', pr.sku,
        'locationId', l.location_id, 'locationCode', loc.code, 'quantity', l.quantity,
        'pickedQuantity', l.picked_quantity, 'shortQuantity', l.short_quantity, 'status', l.status) as line
      from pick_list_lines l join products pr on pr.id = l.product_id join locations loc on loc.id = l.location_id
      where l.tenant_id = p.tenant_id and l.pick_list_id = p.id order by l.line_no))) as list
  from pick_lists p where p.tenant_id = ?1 and p.id = ?2`;

async function pick(env: Env, request: Request, pickListId: string): Promise<Response> {
  const key = await lookUpKey(env, await keyHashOf(request));
  if (!key) return unauthorized();
  const input = await request.json<{ lineId: string; location: string; product: string; quantity: number }>();
  const tenant = key.tenant_id;
  const db = env.SHARD_0;
  const line = await db
    .prepare(
      `select l.order_id, l.order_line_id, l.product_id, l.location_id, l.lot_id, p.warehouse_id, pr.sku,
         loc.code as location_code, l.quantity - l.picked_quantity - l.short_quantity as remaining,
         (select id from locations where tenant_id = ?1 and warehouse_id = p.warehouse_id and type = 'packing'
           and active = 1 order by code limit 1) as packing_id
       from pick_list_lines l join pick_lists p on p.id = l.pick_list_id
         join products pr on pr.id = l.product_id join locations loc on loc.id = l.location_id
       where l.tenant_id = ?1 and l.pick_list_id = ?2 and l.id = ?3 and p.status in ('open', 'in_progress')`,
    )
    .bind(tenant, pickListId, input.lineId)
    .first<PickedLine>();
  if (!line || line.sku !== input.product || line.location_code !== input.location || !line.packing_id) {
    return json({ error: { code: "CONFLICT" } }, 409);
  }
  const q = input.quantity;
  if (q > line.remaining) return json({ error: { code: "CONFLICT" } }, 409);
  const now = new Date().toISOString();
  // ?1 tenant, ?2 list, ?3 line, ?4 order, ?5 order line, ?6 product, ?7 bin, ?8 lot, ?9 packing, ?10 warehouse,
  // ?11 quantity, ?12 now, ?13 key: one binding for every statement.
  const guard = `exists (select 1 from pick_lists p join pick_list_lines l on l.pick_list_id = p.id
      join orders o on o.id = l.order_id
    where p.tenant_id = ?1 and p.id = ?2 and p.status in ('open', 'in_progress') and l.id = ?3 and l.status = 'open'
      and o.status in ('picking', 'partially_shipped'))`;
  const ledger = (location: string, delta: string) =>
    `insert into stock_movements (id, tenant_id, product_id, location_id, lot_id, warehouse_id, delta, on_hand_after,
       reason, reference_type, reference_id, actor_type, actor_id, created_at)
     select '${crypto.randomUUID()}', tenant_id, product_id, location_id, lot_id, warehouse_id, ${delta}, on_hand, 'pick',
       'pick_list', ?2, 'api_key', ?13, ?12
     from stock_levels where tenant_id = ?1 and product_id = ?6 and location_id = ${location} and lot_id = ?8
       and ${guard}`;
  const reservation =
    "tenant_id = ?1 and order_id = ?4 and line_id = ?5 and location_id = ?7 and lot_id = ?8";
  const statements = [
    `update orders set version = version + 1, updated_at = ?12 where tenant_id = ?1 and id = ?4 and ${guard}`,
    `update stock_levels set on_hand = on_hand - ?11, reserved = reserved - ?11, updated_at = ?12
     where tenant_id = ?1 and product_id = ?6 and location_id = ?7 and lot_id = ?8 and ${guard}`,
    ledger("?7", "-?11"),
    `insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, lot_id, on_hand, reserved, updated_at)
     select ?1, ?6, ?9, ?10, ?8, ?11, ?11, ?12 where ${guard}
     on conflict (tenant_id, product_id, location_id, lot_id) do update
       set on_hand = on_hand + excluded.on_hand, reserved = reserved + excluded.reserved, updated_at = excluded.updated_at`,
    ledger("?9", "?11"),
    `insert into order_reservations (tenant_id, order_id, line_id, product_id, location_id, lot_id, quantity)
     select ?1, ?4, ?5, ?6, ?9, ?8, ?11 where ${guard}
     on conflict (tenant_id, order_id, line_id, location_id, lot_id) do update set quantity = quantity + excluded.quantity`,
    `delete from order_reservations where ${reservation} and quantity = ?11 and ${guard}`,
    `update order_reservations set quantity = quantity - ?11 where ${reservation} and ${guard}`,
    `insert into pick_list_picks (id, tenant_id, pick_list_id, line_id, kind, quantity, actor_type, actor_id, created_at)
     select '${crypto.randomUUID()}', ?1, ?2, ?3, 'pick', ?11, 'api_key', ?13, ?12 where ${guard}`,
    `update pick_list_lines set picked_quantity = picked_quantity + ?11,
       status = case when picked_quantity + short_quantity + ?11 < quantity then 'open' else 'picked' end
     where tenant_id = ?1 and id = ?3 and ${guard}`,
    "update pick_lists set status = 'in_progress', updated_at = ?12 where tenant_id = ?1 and id = ?2 and status = 'open'",
    `update pick_lists set status = 'completed', completed_at = ?12, updated_at = ?12
     where tenant_id = ?1 and id = ?2 and status in ('open', 'in_progress')
       and not exists (select 1 from pick_list_lines where tenant_id = ?1 and pick_list_id = ?2 and status = 'open')`,
    `insert into outbox_events (id, tenant_id, type, payload, created_at, seq)
     select '${crypto.randomUUID()}', ?1, 'pick_list.completed', (${pickListJson.replace(" as list", "")}), ?12,
       (select coalesce(max(seq), 0) + 1 from outbox_events where tenant_id = ?1)
     where changes() = 1`,
    pickListJson,
  ];
  const values = [
    ...[
      tenant,
      pickListId,
      input.lineId,
      line.order_id,
      line.order_line_id,
      line.product_id,
      line.location_id,
    ],
    ...[line.lot_id, line.packing_id, line.warehouse_id, q, now, key.id],
  ];
  // Each statement binds only the parameters up to the highest it names.
  const highest = (text: string) => Math.max(...[...text.matchAll(/\?(\d+)/g)].map((m) => Number(m[1])));
  const results = await db.batch<{ list?: string }>(
    statements.map((text) => db.prepare(text).bind(...values.slice(0, highest(text)))),
  );
  if (!results[9]?.meta.changes) return json({ error: { code: "CONFLICT" } }, 409);
  return new Response(`{"data":${results.at(-1)?.results[0]?.list}}`, {
    status: 200,
    headers: { "content-type": "application/json" },
  });
}

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

interface ShipmentBody {
  packages: { weight: { value: number; unit: string }; lines: { orderLineId: string; quantity: number }[] }[];
}

/** An SSCC (GS1 AI 00): extension digit 0, the internal company prefix, the serial, the mod-10 check digit. */
function sscc(serial: number): string {
  const body = `00200000${String(serial).padStart(9, "0")}`;
  const sum = [...body]
    .reverse()
    .reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 3 : 1), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

async function ship(env: Env, request: Request, orderId: string): Promise<Response> {
  const key = await lookUpKey(env, await keyHashOf(request));
  if (!key) return unauthorized();
  const input = await request.json<ShipmentBody>();
  const tenant = key.tenant_id;
  const db = env.SHARD_0;
  const [orders, lines, reservations, history, earlier] = await db.batch<Record<string, unknown>>([
    db.prepare("select * from orders where tenant_id = ?1 and id = ?2").bind(tenant, orderId),
    db
      .prepare("select * from order_lines where tenant_id = ?1 and order_id = ?2 order by line_no")
      .bind(tenant, orderId),
    db
      .prepare("select * from order_reservations where tenant_id = ?1 and order_id = ?2")
      .bind(tenant, orderId),
    db
      .prepare(
        "select * from order_status_history where tenant_id = ?1 and order_id = ?2 order by created_at",
      )
      .bind(tenant, orderId),
    db
      .prepare(
        `select json_object('id', s.id, 'orderId', s.order_id, 'status', s.status, 'carrier', s.carrier,
           'service', s.service, 'createdAt', s.created_at, 'packages', (select json_group_array(json_object('id', p.id,
             'packageNo', p.package_no, 'sscc', p.sscc, 'weight', p.weight_milli, 'trackingNumber', p.tracking_number))
             from packages p where p.tenant_id = s.tenant_id and p.shipment_id = s.id)) as shipment
         from shipments s where s.tenant_id = ?1 and s.order_id = ?2 and s.status <> 'cancelled' order by s.created_at`,
      )
      .bind(tenant, orderId),
  ]);
  const order = orders?.results[0] as { status: string; version: number; number: string } | undefined;
  if (!order) return json({ error: { code: "NOT_FOUND" } }, 404);
  if (!["confirmed", "picking", "packed", "partially_shipped"].includes(order.status)) {
    return json({ error: { code: "CONFLICT" } }, 409);
  }
  type Line = {
    id: string;
    product_id: string;
    quantity: number;
    shipped_quantity: number;
    backordered_quantity: number;
  };
  type Reservation = { line_id: string; location_id: string; lot_id: string; quantity: number };
  const orderLines = (lines?.results ?? []) as Line[];
  const held = ((reservations?.results ?? []) as Reservation[]).map((r) => ({ ...r }));
  // The plan: each package line's units taken from its order line's reservations, in turn.
  const shipped = new Map<string, number>();
  const stock: { line: Line; r: Reservation; quantity: number }[] = [];
  for (const pkg of input.packages) {
    for (const wanted of pkg.lines) {
      const line = orderLines.find((l) => l.id === wanted.orderLineId);
      if (!line) return json({ error: { code: "VALIDATION_FAILED" } }, 400);
      let left = wanted.quantity;
      for (const r of held.filter((h) => h.line_id === line.id && h.quantity > 0)) {
        const take = Math.min(left, r.quantity);
        r.quantity -= take;
        left -= take;
        stock.push({ line, r, quantity: take });
        if (left === 0) break;
      }
      if (left > 0) return json({ error: { code: "CONFLICT" } }, 409);
      shipped.set(line.id, (shipped.get(line.id) ?? 0) + wanted.quantity);
    }
  }
  const open = orderLines.some(
    (l) => l.quantity - l.shipped_quantity - l.backordered_quantity - (shipped.get(l.id) ?? 0) > 0,
  );
  const to = open ? "partially_shipped" : "shipped";
  const now = new Date().toISOString();
  const counter = await db
    .prepare(
      `insert into tenant_settings (tenant_id, sscc_serial, updated_at) values (?1, ?2, ?3)
       on conflict (tenant_id) do update set sscc_serial = sscc_serial + ?2 returning sscc_serial as last`,
    )
    .bind(tenant, input.packages.length, now)
    .first<{ last: number }>();
  const first = (counter?.last ?? 0) - input.packages.length + 1;
  const shipmentId = crypto.randomUUID();
  const packages = input.packages.map((p, i) => ({
    id: crypto.randomUUID(),
    packageNo: i + 1,
    sscc: sscc(first + i),
    weightMilli: Math.round(p.weight.value * 1000),
    weightUnit: p.weight.unit,
  }));
  const packageLines = input.packages.flatMap((p, i) =>
    p.lines.map((l) => ({
      id: crypto.randomUUID(),
      packageId: packages[i]?.id,
      orderLineId: l.orderLineId,
      productId: orderLines.find((line) => line.id === l.orderLineId)?.product_id,
      quantity: l.quantity,
    })),
  );
  const record = { id: shipmentId, orderId, status: "packed", packages, createdAt: now };
  const payload = JSON.stringify({
    ...order,
    status: to,
    version: order.version + 1,
    updatedAt: now,
    lines: orderLines.map((l) => ({ ...l, shipped_quantity: l.shipped_quantity + (shipped.get(l.id) ?? 0) })),
    statusHistory: history?.results,
    shipments: [...(earlier?.results ?? []).map((r) => JSON.parse(String(r.shipment))), record],
  });
  const guard = "exists (select 1 from orders where tenant_id = ?1 and id = ?2 and version = ?3)";
  const bound = (text: string, ...values: unknown[]) =>
    db.prepare(text).bind(tenant, orderId, order.version, ...values);
  const level = "tenant_id = ?1 and product_id = ?4 and location_id = ?5 and lot_id = ?6";
  const reservation =
    "tenant_id = ?1 and order_id = ?2 and line_id = ?4 and location_id = ?5 and lot_id = ?6";
  const events = [...(to === order.status ? [] : ["order.status_changed"]), `order.${to}`];
  const written = await db.batch([
    bound(
      `insert into shipments (id, tenant_id, order_id, warehouse_id, status, created_by, created_at, updated_at)
       select ?4, ?1, ?2, warehouse_id, 'packed', ?5, ?6, ?6 from orders where tenant_id = ?1 and id = ?2 and version = ?3`,
      shipmentId,
      key.id,
      now,
    ),
    bound(
      `insert into packages (id, tenant_id, shipment_id, package_no, sscc, weight_milli, weight_unit, created_at)
       select value ->> 'id', ?1, ?4, value ->> 'packageNo', value ->> 'sscc', value ->> 'weightMilli',
         value ->> 'weightUnit', ?6 from json_each(?5) where ${guard}`,
      shipmentId,
      JSON.stringify(packages),
      now,
    ),
    bound(
      `insert into package_lines (id, tenant_id, package_id, shipment_id, order_line_id, product_id, quantity)
       select value ->> 'id', ?1, value ->> 'packageId', ?4, value ->> 'orderLineId', value ->> 'productId',
         value ->> 'quantity' from json_each(?5) where ${guard}`,
      shipmentId,
      JSON.stringify(packageLines),
    ),
    bound(
      `insert into shipment_stock (tenant_id, shipment_id, order_line_id, product_id, location_id, lot_id, quantity)
       select ?1, ?4, value ->> 'l', value ->> 'p', value ->> 'at', value ->> 'lot', value ->> 'q'
       from json_each(?5) where ${guard}`,
      shipmentId,
      JSON.stringify(
        stock.map((s) => ({
          l: s.line.id,
          p: s.line.product_id,
          at: s.r.location_id,
          lot: s.r.lot_id,
          q: s.quantity,
        })),
      ),
    ),
    ...stock.flatMap((s) => [
      bound(
        `update stock_levels set on_hand = on_hand - ?7, reserved = reserved - ?7, updated_at = ?8
         where ${level} and ${guard}`,
        s.line.product_id,
        s.r.location_id,
        s.r.lot_id,
        s.quantity,
        now,
      ),
      bound(
        `insert into stock_movements (id, tenant_id, product_id, location_id, lot_id, warehouse_id, delta, on_hand_after,
           reason, reference_type, reference_id, actor_type, actor_id, created_at)
         select ?7, tenant_id, product_id, location_id, lot_id, warehouse_id, -?8, on_hand, 'shipment', 'shipment', ?9,
           'api_key', ?10, ?11
         from stock_levels where ${level} and ${guard}`,
        s.line.product_id,
        s.r.location_id,
        s.r.lot_id,
        crypto.randomUUID(),
        s.quantity,
        shipmentId,
        key.id,
        now,
      ),
      bound(
        `delete from order_reservations where ${reservation} and quantity = ?7 and ${guard}`,
        s.line.id,
        s.r.location_id,
        s.r.lot_id,
        s.quantity,
      ),
      bound(
        `update order_reservations set quantity = quantity - ?7 where ${reservation} and ${guard}`,
        s.line.id,
        s.r.location_id,
        s.r.lot_id,
        s.quantity,
      ),
    ]),
    ...[...shipped].map(([lineId, quantity]) =>
      bound(
        `update order_lines set shipped_quantity = shipped_quantity + ?5 where tenant_id = ?1 and id = ?4 and ${guard}`,
        lineId,
        quantity,
      ),
    ),
    ...(to === order.status
      ? []
      : [
          bound(
            `insert into order_status_history (id, tenant_id, order_id, from_status, to_status, actor_type, actor_id,
               created_at)
             select ?4, ?1, ?2, ?5, ?6, 'api_key', ?7, ?8 where ${guard}`,
            crypto.randomUUID(),
            order.status,
            to,
            key.id,
            now,
          ),
        ]),
    ...events.map((type) =>
      bound(
        `insert into outbox_events (id, tenant_id, type, payload, created_at, seq)
         select ?4, ?1, ?5, ?6, ?7, (select coalesce(max(seq), 0) + 1 from outbox_events where tenant_id = ?1)
         where ${guard}`,
        crypto.randomUUID(),
        type,
        payload,
        now,
      ),
    ),
    bound(
      "update orders set version = version + 1, status = ?4, updated_at = ?5 where tenant_id = ?1 and id = ?2 and version = ?3",
      to,
      now,
    ),
  ]);
  if (!written.at(-1)?.meta.changes) return json({ error: { code: "CONFLICT" } }, 409);
  return json({ data: record }, 201);
}

/** `count` sales orders `confirmed`, each one line of `quantity` of the product, reserved at the location. */
async function seedShipments(env: Env, request: Request): Promise<Response> {
  const input = await request.json<{
    tenant: string;
    location: string;
    productId: string;
    quantity: number;
    count: number;
  }>();
  const now = new Date().toISOString();
  const orders = Array.from({ length: input.count }, () => ({
    order: crypto.randomUUID(),
    line: crypto.randomUUID(),
  }));
  const each = JSON.stringify(orders);
  const db = env.SHARD_0;
  await db.batch([
    db
      .prepare(
        `insert into orders (id, tenant_id, number, type, status, customer_id, warehouse_id, total_e4, created_at, updated_at)
         select value ->> 'order', ?1, 'SO-S' || key, 'sales', 'confirmed', ?1,
           (select warehouse_id from locations where id = ?2), 0, ?3, ?3 from json_each(?4)`,
      )
      .bind(input.tenant, input.location, now, each),
    db
      .prepare(
        `insert into order_lines (id, tenant_id, order_id, line_no, product_id, quantity, unit_price_e4)
         select value ->> 'line', ?1, value ->> 'order', 1, ?2, ?3, 10000 from json_each(?4)`,
      )
      .bind(input.tenant, input.productId, input.quantity, each),
    db
      .prepare(
        `insert into order_reservations (tenant_id, order_id, line_id, product_id, location_id, lot_id, quantity)
         select ?1, value ->> 'order', value ->> 'line', ?2, ?3, '', ?4 from json_each(?5)`,
      )
      .bind(input.tenant, input.productId, input.location, input.quantity, each),
    db
      .prepare(
        "update stock_levels set reserved = reserved + ?4 where tenant_id = ?1 and product_id = ?2 and location_id = ?3",
      )
      .bind(input.tenant, input.productId, input.location, input.quantity * input.count),
  ]);
  return json({ orders }, 201);
}

interface ImportRow {
  sku: string;
  locationCode: string;
  quantity: number;
  reason?: string;
}

async function importChunk(env: Env, request: Request): Promise<Response> {
  const key = await lookUpKey(env, await keyHashOf(request));
  if (!key) return unauthorized();
  const input = await request.json<{ jobId: string; chunk: number; rows: ImportRow[] }>();
  const bad = input.rows.findIndex((r) => !Number.isInteger(r.quantity) || r.quantity === 0);
  if (bad >= 0) return json({ error: { code: "VALIDATION_FAILED", errors: [`rows[${bad}].quantity`] } }, 400);
  const tenant = key.tenant_id;
  const db = env.SHARD_0;
  const resolved = await db
    .prepare(
      `select j.key as i, p.id as product_id, l.id as location_id, l.warehouse_id, s.on_hand
       from json_each(?2) j
         left join products p on p.tenant_id = ?1 and p.sku = j.value ->> 'sku'
         left join locations l on l.tenant_id = ?1 and l.code = j.value ->> 'locationCode'
         left join stock_levels s on s.tenant_id = ?1 and s.product_id = p.id and s.location_id = l.id and s.lot_id = ''`,
    )
    .bind(tenant, JSON.stringify(input.rows.map(({ sku, locationCode }) => ({ sku, locationCode }))))
    .all<{
      i: number;
      product_id: string | null;
      location_id: string | null;
      warehouse_id: string;
      on_hand: number;
    }>();
  // A row whose product or location is unknown, or that would take more than is there, is the chunk's error.
  const errors: { line: number; errors: string[] }[] = [];
  const changes = resolved.results.flatMap((r) => {
    const row = input.rows[r.i] as ImportRow;
    if (!r.product_id || !r.location_id || (r.on_hand ?? 0) + row.quantity < 0) {
      errors.push({ line: r.i + 1, errors: ["unknown product or location, or not enough stock"] });
      return [];
    }
    return [
      {
        m: crypto.randomUUID(),
        p: r.product_id,
        l: r.location_id,
        w: r.warehouse_id,
        q: row.quantity,
        r: row.reason ?? "import",
      },
    ];
  });
  const now = new Date().toISOString();
  const each = JSON.stringify(changes);
  // Rows of one chunk name distinct levels (as the API's plan merges them), so each ledger row's on hand after
  // is its level's after the batch.
  const results = await db.batch([
    db
      .prepare(
        `insert into stock_levels (tenant_id, product_id, location_id, warehouse_id, lot_id, on_hand, reserved, updated_at)
         select ?1, value ->> 'p', value ->> 'l', value ->> 'w', '', value ->> 'q', 0, ?3 from json_each(?2) where true
         on conflict (tenant_id, product_id, location_id, lot_id) do update
           set on_hand = on_hand + excluded.on_hand, updated_at = excluded.updated_at`,
      )
      .bind(tenant, each, now),
    db
      .prepare(
        `insert into stock_movements (id, tenant_id, product_id, location_id, lot_id, warehouse_id, delta, on_hand_after,
           reason, reference_type, reference_id, actor_type, actor_id, created_at)
         select j.value ->> 'm', ?1, s.product_id, s.location_id, '', s.warehouse_id, j.value ->> 'q', s.on_hand,
           j.value ->> 'r', 'job', ?3, 'api_key', ?4, ?5
         from json_each(?2) j cross join stock_levels s on s.tenant_id = ?1 and s.product_id = j.value ->> 'p'
           and s.location_id = j.value ->> 'l' and s.lot_id = ''`,
      )
      .bind(tenant, each, input.jobId, key.id, now),
    db
      .prepare(
        `insert into outbox_events (id, tenant_id, type, payload, created_at, seq)
         select lower(hex(randomblob(16))), ?1, 'inventory.adjusted', json_object('movementId', m.id,
           'productId', m.product_id, 'delta', m.delta, 'reason', m.reason, 'stockLevel', json_object(
             'locationId', s.location_id, 'onHand', s.on_hand, 'reserved', s.reserved, 'available', s.on_hand - s.reserved)),
           ?3, (select coalesce(max(seq), 0) from outbox_events where tenant_id = ?1) + j.key + 1
         from json_each(?2) j cross join stock_movements m on m.tenant_id = ?1 and m.id = j.value ->> 'm'
           cross join stock_levels s on s.tenant_id = ?1 and s.product_id = m.product_id
             and s.location_id = m.location_id and s.lot_id = ''`,
      )
      .bind(tenant, each, now),
    db
      .prepare(
        `insert into job_chunks (tenant_id, job_id, chunk, processed, failed, errors, job_status, created_at)
         select ?1, ?2, ?3, ?4, ?5, ?6, status, ?7 from jobs where tenant_id = ?1 and id = ?2`,
      )
      .bind(tenant, input.jobId, input.chunk, input.rows.length, errors.length, JSON.stringify(errors), now),
  ]);
  return json({ data: { written: results[1]?.meta.changes, failed: errors.length } }, 201);
}

/** `count` products B-000000... (as bench/jobs-lib.mjs seeds the API's) and a running stock_import job. */
async function seedImport(env: Env, request: Request): Promise<Response> {
  const { tenant, count } = await request.json<{ tenant: string; count: number }>();
  const now = new Date().toISOString();
  const job = crypto.randomUUID();
  const db = env.SHARD_0;
  await db.batch([
    db
      .prepare(
        `with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ?2)
         insert into products (id, tenant_id, sku, name, created_at, updated_at)
         select lower(hex(randomblob(16))), ?1, printf('B-%06d', i), 'Bench ' || i, ?3, ?3 from n`,
      )
      .bind(tenant, count, now),
    db
      .prepare(
        `insert into jobs (id, tenant_id, type, status, options, actor_type, actor_id, request_id, created_at, started_at)
         values (?1, ?2, 'stock_import', 'running', '{}', 'api_key', 'anchor', 'anchor', ?3, ?3)`,
      )
      .bind(job, tenant, now),
  ]);
  return json({ jobId: job }, 201);
}

/**
 * A packing location, a sales order `picking` of `quantity` of each product (reserved at the seeded location)
 * and its pick list, one line per product: what `POST /pick-lists` leaves, written directly.
 */
async function seedPick(env: Env, request: Request): Promise<Response> {
  const input = await request.json<{
    tenant: string;
    location: string;
    productIds: string[];
    quantity: number;
  }>();
  const now = new Date().toISOString();
  const db = env.SHARD_0;
  const { warehouse_id: warehouse } = (await db
    .prepare("select warehouse_id from locations where id = ?1")
    .bind(input.location)
    .first<{ warehouse_id: string }>()) ?? { warehouse_id: "" };
  const order = crypto.randomUUID();
  const list = crypto.randomUUID();
  const lines = input.productIds.map((productId, i) => ({
    productId,
    orderLine: crypto.randomUUID(),
    pickLine: crypto.randomUUID(),
    lineNo: i + 1,
  }));
  const each = JSON.stringify(lines);
  await db.batch([
    db
      .prepare(
        `insert into locations (id, tenant_id, warehouse_id, code, name, type, created_at, updated_at)
         select ?1, ?2, ?3, 'PACK', 'Packing', 'packing', ?4, ?4
         where not exists (select 1 from locations where warehouse_id = ?3 and type = 'packing')`,
      )
      .bind(crypto.randomUUID(), input.tenant, warehouse, now),
    db
      .prepare(
        `insert into orders (id, tenant_id, number, type, status, customer_id, warehouse_id, total_e4, created_at, updated_at)
         values (?1, ?2, 'SO-' || substr(?1, 1, 8), 'sales', 'picking', ?3, ?4, 0, ?5, ?5)`,
      )
      .bind(order, input.tenant, crypto.randomUUID(), warehouse, now),
    db
      .prepare(
        `insert into order_lines (id, tenant_id, order_id, line_no, product_id, quantity, unit_price_e4)
         select value ->> 'orderLine', ?1, ?2, value ->> 'lineNo', value ->> 'productId', ?3, 0 from json_each(?4)`,
      )
      .bind(input.tenant, order, input.quantity, each),
    db
      .prepare(
        `insert into order_reservations (tenant_id, order_id, line_id, product_id, location_id, lot_id, quantity)
         select ?1, ?2, value ->> 'orderLine', value ->> 'productId', ?3, '', ?4 from json_each(?5)`,
      )
      .bind(input.tenant, order, input.location, input.quantity, each),
    db
      .prepare(
        `update stock_levels set reserved = reserved + ?3 where tenant_id = ?1 and location_id = ?2
           and product_id in (select value ->> 'productId' from json_each(?4))`,
      )
      .bind(input.tenant, input.location, input.quantity, each),
    db
      .prepare(
        `insert into pick_lists (id, tenant_id, warehouse_id, status, order_ids, created_at, updated_at)
         values (?1, ?2, ?3, 'open', json_array(?4), ?5, ?5)`,
      )
      .bind(list, input.tenant, warehouse, order, now),
    db
      .prepare(
        `insert into pick_list_lines (id, tenant_id, pick_list_id, line_no, order_id, order_line_id, product_id,
           location_id, quantity)
         select value ->> 'pickLine', ?1, ?2, value ->> 'lineNo', ?3, value ->> 'orderLine', value ->> 'productId', ?4, ?5
         from json_each(?6)`,
      )
      .bind(input.tenant, list, order, input.location, input.quantity, each),
  ]);
  return json({ pickListId: list, lineIds: lines.map((l) => l.pickLine) }, 201);
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (request.method === "POST" && pathname === "/adjust") return adjust(env, request);
    if (request.method === "POST" && pathname === "/orders") return createOrder(env, request);
    if (request.method === "GET" && pathname === "/products") return listProducts(env, request);
    if (request.method === "GET" && pathname === "/me") return me(env, request);
    const picks = pathname.match(/^\/pick-lists\/([^/]+)\/picks$/);
    if (request.method === "POST" && picks?.[1]) return pick(env, request, picks[1]);
    if (request.method === "POST" && pathname === "/seed") return seed(env, request);
    if (request.method === "POST" && pathname === "/seed-pick") return seedPick(env, request);
    if (request.method === "POST" && pathname === "/import-chunk") return importChunk(env, request);
    const shipments = pathname.match(/^\/orders\/([^/]+)\/shipments$/);
    if (request.method === "POST" && shipments?.[1]) return ship(env, request, shipments[1]);
    if (request.method === "POST" && pathname === "/seed-shipments") return seedShipments(env, request);
    if (request.method === "POST" && pathname === "/seed-import") return seedImport(env, request);
    if (pathname === "/ready") return new Response("ok");
    return new Response("not found", { status: 404 });
  },
} satisfies ExportedHandler<Env>;
