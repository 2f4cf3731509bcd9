// Fills the demo tenant through the public API, as any client would, by running today's plan (scripts/demo/plan.mjs)
// once the server answers: `npm run dev` calls it on every start, and it fills a tenant that has no products yet.
// A refused step costs only its section (one day of the history, or one part of today): the filler prints one line
// naming it and goes on, so the server, the banner and the scheduled job never depend on the demo.
// The ledger's times are the server's, so a history day is written within seconds; the filler then spreads each day
// over that calendar day's working hours in the local database (redate, below; docs/decisions/first-run.md).
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { demoPlan, WEBHOOK_DESCRIPTION } from "./plan.mjs";

/** Thrown for a step the API refused (or that could not be sent): the section stops there. */
export class Refused extends Error {}

// The demo tenant's business plan allows 300 requests a rolling minute, shared with whoever signs in: the filler keeps
// to 240, so the person who opens the web app as the banner prints has a fifth of the minute's budget.
const FILLER_PER_MINUTE = 240;

/** The API as the demo's admin key calls it: waits out 429s as the API asks; one Idempotency-Key per step. */
function client(base, apiKey) {
  let requests = 0;
  const sentAt = [];
  const pace = async () => {
    while (sentAt.length > 0 && sentAt[0] <= Date.now() - 60_000) sentAt.shift();
    if (sentAt.length >= FILLER_PER_MINUTE)
      await new Promise((resolve) => setTimeout(resolve, sentAt[0] + 60_000 - Date.now()));
    sentAt.push(Date.now());
  };
  const send = async (method, path, { body, type = "application/json" } = {}) => {
    const key = randomUUID();
    for (let attempt = 1; ; attempt++) {
      let response;
      try {
        await pace();
        requests++;
        response = await fetch(`${base}${path}`, {
          method,
          headers: {
            "X-API-Key": apiKey,
            ...(method !== "GET" && { "Idempotency-Key": key }),
            ...(body !== undefined && { "Content-Type": type }),
          },
          body: body === undefined ? undefined : type === "application/json" ? JSON.stringify(body) : body,
        });
      } catch (error) {
        // The server restarting (a rebuild of the web app): the same key makes the retry safe.
        if (attempt < 5) {
          await new Promise((resolve) => setTimeout(resolve, 2000));
          continue;
        }
        throw new Refused(`${method} ${path} could not be sent (${error.cause?.code ?? error.message})`);
      }
      const envelope = await response.json().catch(() => ({}));
      if (response.status === 429) {
        await new Promise((resolve) =>
          setTimeout(resolve, Number(response.headers.get("retry-after") ?? 5) * 1000),
        );
        continue;
      }
      if (!response.ok) {
        const message = envelope.message ?? response.statusText;
        const details = Array.isArray(envelope.errors) ? envelope.errors.join("; ") : "";
        const errors = details && details !== message ? `: ${details}` : "";
        throw new Refused(`${response.status} ${message}${errors}`);
      }
      return envelope.data;
    }
  };
  return { send, requests: () => requests };
}

/** Resolves the plan's placeholders (see scripts/demo/plan.mjs) from what earlier steps saved. */
function resolver(saved, receiverUrl) {
  const idOf = (key) => {
    const record = saved.get(key);
    if (!record) throw new Refused(`needs ${key}, which an earlier refused step did not make`);
    return record.id;
  };
  const lineOf = (key, sku) => {
    const productId = idOf(`product:${sku}`);
    const line = saved.get(key)?.lines?.find((l) => l.productId === productId);
    if (!line) throw new Refused(`${key} has no line of ${sku}`);
    return line.id;
  };
  const value = (text) => {
    if (text === "@receiver") return receiverUrl;
    const line = /^@line:(\w+:[\w-]+):([\w-]+)$/.exec(text);
    if (line) return lineOf(line[1], line[2]);
    const pack = /^@package:(\w+:[\w-]+):(\d+)$/.exec(text);
    if (pack) {
      const found = saved.get(pack[1])?.packages?.find((p) => p.packageNo === Number(pack[2]));
      if (!found) throw new Refused(`${pack[1]} has no package ${pack[2]}`);
      return found.id;
    }
    return text.startsWith("@") ? idOf(text.slice(1)) : text;
  };
  const resolve = (body) => {
    if (typeof body === "string") return value(body);
    if (Array.isArray(body)) return body.map(resolve);
    if (body && typeof body === "object")
      return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, resolve(v)]));
    return body;
  };
  const path = (template) => template.replace(/\{([\w-]+:[\w/-]+)\}/g, (_, key) => idOf(key));
  return { resolve, path };
}

/** Runs one step of the plan: a request, or one of the few the filler completes from the server's answers. */
async function runStep(api, saved, { resolve, path }, step) {
  if (step.products) {
    // Every product's id by SKU: the batch answers per line, the list in one or two pages.
    for (let page = 1; ; page++) {
      const { items, totalCount } = await api.send("GET", `/products?pageSize=100&page=${page}&sort=sku`);
      for (const product of items) saved.set(`product:${product.sku}`, product);
      if (page * 100 >= totalCount) return;
    }
  }
  if (step.pick) {
    // Each line as the pick list walks the bins: the location, the product, the lot it names.
    const list = saved.get(step.pick);
    if (!list) throw new Refused(`needs ${step.pick}`);
    for (const line of list.lines)
      await api.send("POST", `/pick-lists/${list.id}/picks`, {
        body: {
          lineId: line.id,
          location: line.locationCode,
          product: line.sku,
          quantity: line.quantity,
          ...(line.lotNumber && { lotNumber: line.lotNumber }),
        },
      });
    return;
  }
  if (step.upload !== undefined) {
    saved.set(step.save, await api.send("POST", "/uploads", { body: step.upload, type: "text/csv" }));
    return;
  }
  if (step.job) {
    const id = saved.get(step.job)?.id;
    if (!id) throw new Refused(`needs ${step.job}`);
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
      const job = await api.send("GET", `/jobs/${id}`);
      if (job.status === "succeeded") return;
      if (job.status !== "queued" && job.status !== "running")
        throw new Refused(`the job ${job.status}: ${job.error}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    throw new Refused("the job did not end within 2 minutes");
  }
  const data = await api.send(step.method, path(step.path), {
    body: step.body === undefined ? undefined : resolve(step.body),
  });
  if (step.save) saved.set(step.save, data);
}

/**
 * Sends the plan's steps section by section through `api` (`send(method, path, { body, type })`, throwing `Refused`).
 * A refused step ends its section with one line on `log`; the next section runs. Answers each section's start time
 * (the boundaries redate spreads history days by) and the names of the sections refused.
 */
export async function runPlan(
  plan,
  api,
  { receiverUrl = "http://localhost:9/no-receiver", log = console.error } = {},
) {
  const saved = new Map();
  const places = resolver(saved, receiverUrl);
  const boundaries = [];
  const refused = [];
  for (const section of plan.sections) {
    const history = section.day !== null && section.day !== plan.today;
    boundaries.push({ day: history ? section.day : null, from: new Date().toISOString() });
    for (const step of section.steps) {
      try {
        await runStep(api, saved, places, step);
      } catch (error) {
        if (!(error instanceof Refused)) throw error;
        refused.push(section.name);
        log(
          `[demo] ${section.name}: "${step.label}" was refused (${error.message}); the rest of it is skipped`,
        );
        break;
      }
    }
  }
  boundaries.push({ day: null, from: new Date().toISOString() });
  return { boundaries, refused };
}

/**
 * Fills the demo tenant on its first start; on later starts points the demo webhook at this run's receiver.
 * A refused step never stops it: what was refused is printed, one line each.
 */
export async function fillDemoTenant(base, demo, { persist = [], receiverUrl } = {}) {
  const api = client(base, demo.apiKey);
  try {
    if ((await api.send("GET", "/products?pageSize=1")).totalCount > 0) {
      if (receiverUrl) await pointWebhook(api, receiverUrl);
      return;
    }
  } catch (error) {
    console.error(`[demo] the demo tenant could not be read (${error.message}); it is left as it is`);
    return;
  }
  const started = Date.now();
  const plan = demoPlan(new Date().toISOString().slice(0, 10));
  const { boundaries, refused } = await runPlan(plan, api, { receiverUrl });
  redate(demo.tenantId, boundaries, persist);
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(
    `[demo] the demo tenant's month up to ${plan.today} was filled through the API in ${seconds} s ` +
      `(${api.requests()} requests)` +
      (refused.length > 0 ? `; refused: ${refused.join(", ")}` : ""),
  );
}

/** The demo webhook delivers to the receiver of this run (its port changes with every start). */
async function pointWebhook(api, receiverUrl) {
  try {
    const { items } = await api.send("GET", "/webhooks?pageSize=100");
    const hook = items.find((w) => w.description === WEBHOOK_DESCRIPTION);
    if (hook && hook.url !== receiverUrl)
      await api.send("PUT", `/webhooks/${hook.id}`, {
        body: { url: receiverUrl, events: hook.events, description: hook.description, active: hook.active },
      });
  } catch (error) {
    console.error(`[demo] the demo webhook could not be pointed at ${receiverUrl} (${error.message})`);
  }
}

/**
 * Spreads each history day over that calendar day's working hours (08:00 to 17:00 UTC): the rows a day wrote
 * between its two boundaries keep their order (the map is increasing), so every stock level's ledger stays in
 * commit order and later writes, stamped now, still come last. Only this local development database is touched;
 * the figures themselves were all made by the API.
 */
function redate(tenantId, boundaries, persist) {
  const quote = (value) => `'${String(value).replaceAll("'", "''")}'`;
  const columns = [
    ["stock_movements", "created_at"],
    ["orders", "created_at"],
    ["orders", "updated_at"],
    ["order_status_history", "created_at"],
    ["lots", "created_at"],
    ["shipments", "created_at"],
    ["shipments", "updated_at"],
    ["shipments", "dispatched_at"],
    ["packages", "created_at"],
  ];
  const statements = [];
  for (let i = 0; i + 1 < boundaries.length; i++) {
    const { day, from } = boundaries[i];
    if (day === null) continue;
    const to = boundaries[i + 1].from;
    const start = `${day}T08:00:00.000Z`;
    const scale = (9 * 3_600_000) / Math.max(1, Date.parse(to) - Date.parse(from));
    for (const [table, column] of columns)
      statements.push(
        `update ${table} set ${column} = strftime('%Y-%m-%dT%H:%M:%fZ', julianday(${quote(start)}) + ` +
          `(julianday(${column}) - julianday(${quote(from)})) * ${scale}) where tenant_id = ${quote(tenantId)} ` +
          `and ${column} >= ${quote(from)} and ${column} < ${quote(to)};`,
      );
  }
  if (statements.length === 0) return;
  const result = spawnSync(
    "npx",
    ["wrangler", "d1", "execute", "SHARD_0", "--local", ...persist, "--command", statements.join("\n")],
    { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, CI: "true" } },
  );
  if (result.status !== 0)
    console.error("[demo] the history could not be spread over its days; it is dated today");
}
