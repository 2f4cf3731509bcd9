// Where the API's CPU goes on its hot paths (issue #35): serves the API under `wrangler dev` with workerd's
// inspector, records a V8 CPU profile while a load of hot-SKU adjustments, then 3-line sales orders, then the
// product page of 20 runs, and prints the functions with the most self time, grouped by source file.
// Run: npm run bench -- profile (PROFILE_SECONDS per scenario, default 10; PROFILE_TOP rows, default 25;
// PROFILE_ONLY=<text> profiles only the scenarios whose name contains it, e.g. PROFILE_ONLY=products;
// PROFILE_OUT=<dir> also writes each profile there as a .cpuprofile, which Chrome's DevTools open).
import { mkdirSync, writeFileSync } from "node:fs";
import { createTenant, load, startApi } from "./lib.mjs";
import { seedProducts } from "./seed-products.mjs";

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const TOP = Number(process.env.PROFILE_TOP ?? 25);
const INSPECTOR_PORT = 9329 + Number(process.env.BENCH_PORT_OFFSET ?? 0);
const ONLY = process.env.PROFILE_ONLY ?? "";
const OUT = process.env.PROFILE_OUT;

const api = await startApi({
  port: 8880,
  persistTo: "/tmp/bench-profile-state",
  fresh: true,
  inspectorPort: INSPECTOR_PORT,
});

/** A Chrome DevTools Protocol session with the user Worker's isolate. */
async function inspect() {
  const targets = await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json`)).json();
  const target = targets.find((t) => !t.title?.includes("internal")) ?? targets[0];
  // wrangler's inspector proxy refuses a connection without an Origin (undici's WebSocket takes headers).
  const socket = new WebSocket(target.webSocketDebuggerUrl, {
    headers: { Origin: `http://127.0.0.1:${INSPECTOR_PORT}` },
  });
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let nextId = 1;
  const pending = new Map();
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    pending.get(data.id)?.(data);
  };
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => socket.close() };
}

// What a profile samples when the isolate runs no JavaScript of its own.
const idle = ["(idle)", "(program)", "(garbage collector)"];

/**
 * The source module of each line of the Worker's bundle: esbuild heads each module's code with a
 * `// src/...` or `// node_modules/...` comment, so a profile's bundle lines can name their source file.
 */
async function modulesByLine(session, profile) {
  const byScript = new Map();
  await session.send("Debugger.enable");
  for (const { callFrame } of profile.nodes) {
    if (!callFrame.url.endsWith(".js") || byScript.has(callFrame.scriptId)) continue;
    const { result } = await session.send("Debugger.getScriptSource", { scriptId: callFrame.scriptId });
    let current = callFrame.url;
    byScript.set(
      callFrame.scriptId,
      (result?.scriptSource ?? "").split("\n").map((line) => {
        const heading = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(line);
        if (heading) current = heading[1].replace(/^.*node_modules\//, "node_modules/");
        return current;
      }),
    );
  }
  await session.send("Debugger.disable");
  return byScript;
}

/** Self time per function (and per file), as shares of the isolate's busy time. */
function summarise(profile, requests, modules) {
  const placeOf = ({ url, scriptId, lineNumber }) =>
    modules.get(scriptId)?.[lineNumber] ??
    (url || "(native)").replace(/^.*\/(node_modules|src|\.wrangler)\//, "$1/");
  // A bundle line stays in the name: it tells apart the anonymous functions of one module.
  const nameOf = (callFrame) =>
    `${callFrame.functionName || "(anonymous)"} ${placeOf(callFrame)} (${callFrame.url || "native"}:${callFrame.lineNumber + 1})`;
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map();
  const intervals = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    selfMs.set(id, (selfMs.get(id) ?? 0) + (intervals[i] ?? 0) / 1000);
  });
  const total = [...selfMs.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map();
  const byFile = new Map();
  for (const [id, ms] of selfMs) {
    const { callFrame } = byNode.get(id);
    const file = placeOf(callFrame);
    const name = nameOf(callFrame);
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    const pkg = file.startsWith("node_modules/")
      ? file
          .split("/")
          .slice(0, file.split("/")[1]?.startsWith("@") ? 3 : 2)
          .join("/")
      : file;
    if (!idle.includes(callFrame.functionName)) byFile.set(pkg, (byFile.get(pkg) ?? 0) + ms);
  }
  const busy =
    total -
    [...byFunction].filter(([n]) => idle.some((i) => n.startsWith(i))).reduce((a, [, ms]) => a + ms, 0);
  const rows = (map) =>
    [...map]
      .filter(([name]) => !idle.some((i) => name.startsWith(i)))
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(
        ([name, ms]) => `| ${name} | ${(ms / requests).toFixed(3)} | ${((100 * ms) / busy).toFixed(1)}% |`,
      );
  console.log(`isolate busy ${(busy / requests).toFixed(2)} ms per request over ${requests} requests`);
  console.log("| file or package | self ms/request | share of busy |\n|---|---|---|");
  console.log(rows(byFile).join("\n"));
  console.log("\n| function | self ms/request | share of busy |\n|---|---|---|");
  console.log(rows(byFunction).join("\n"));
  console.log("\n| function (with what it calls) | total ms/request | share of busy |\n|---|---|---|");
  console.log(rows(inclusive(profile, byNode, selfMs, nameOf)).join("\n"));
}

/** Time per function including its callees (a recursive call counted once): which stage costs what. */
function inclusive(profile, byNode, selfMs, nameOf) {
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const totals = new Map();
  for (const [id, ms] of selfMs) {
    if (idle.includes(byNode.get(id).callFrame.functionName)) continue;
    const seen = new Set();
    for (let at = id; at !== undefined; at = parentOf.get(at)) {
      const name = nameOf(byNode.get(at).callFrame);
      if (seen.has(name) || name.startsWith("(root)")) continue;
      seen.add(name);
      totals.set(name, (totals.get(name) ?? 0) + ms);
    }
  }
  return totals;
}

try {
  const tenant = await createTenant(api.api, "enterprise");
  const headers = { "x-api-key": tenant.key, "content-type": "application/json" };
  const post = async (path, body) => {
    const response = await fetch(`${api.api}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    const json = await response.json();
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const warehouse = await post("/warehouses", { code: "PROF", name: "Profile" });
  const location = await post("/locations", {
    warehouseId: warehouse.id,
    code: "A-1",
    name: "A-1",
    type: "bin",
  });
  const products = [];
  for (let i = 0; i < 3; i++) {
    const product = await post("/products", { sku: `PROF-${i}`, name: `Profile ${i}` });
    await post("/inventory/adjustments", {
      productId: product.id,
      locationId: location.id,
      quantity: 500_000_000,
      reason: "bench",
    });
    products.push(product.id);
  }
  // The product page's 20 rows (as bench/same-work.mjs seeds them); the 3 above make 23.
  await seedProducts(api.api, tenant.key, 20, "PAGE");
  await (await fetch(`${api.api}/products?pageSize=20`, { headers })).json(); // the key, seen before
  const scenarios = {
    "POST /inventory/adjustments (hot SKU)": {
      url: `${api.api}/inventory/adjustments`,
      method: "POST",
      headers,
      body: JSON.stringify({ productId: products[0], locationId: location.id, quantity: 1, reason: "bench" }),
    },
    "POST /orders/sales (3 lines)": {
      url: `${api.api}/orders/sales`,
      method: "POST",
      headers,
      body: JSON.stringify({
        customerId: crypto.randomUUID(),
        lines: products.map((productId) => ({ productId, quantity: 1, price: 9.99 })),
        shippingAddress: { street: "1 Bench St", city: "Load", zip: "10000" },
      }),
    },
    "GET /products?pageSize=20 (a key seen before)": {
      url: `${api.api}/products?pageSize=20`,
      headers: { "x-api-key": tenant.key },
    },
  };
  const session = await inspect();
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 200 });
  for (const [name, target] of Object.entries(scenarios)) {
    if (!name.includes(ONLY)) continue;
    await load({ ...target, duration: 2 }); // warm-up
    await session.send("Profiler.start");
    const result = await load({ ...target, connections: 4, duration: SECONDS });
    const { result: stopped } = await session.send("Profiler.stop");
    console.log(`\n## ${name}: CPU profile of the Worker's isolate`);
    summarise(stopped.profile, result.total, await modulesByLine(session, stopped.profile));
    if (OUT) {
      mkdirSync(OUT, { recursive: true });
      const file = `${OUT}/${name.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "")}.cpuprofile`;
      writeFileSync(file, JSON.stringify(stopped.profile));
    }
  }
  session.close();
} finally {
  api.stop();
}
