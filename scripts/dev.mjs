// `npm run dev`: apply local D1 migrations (the platform and every shard), seed the demo tenant, serve with
// wrangler dev, fill the demo tenant through the API once the server answers (scripts/demo), and run the scheduled
// job every minute as the cron trigger (`* * * * *`) does in production: wrangler dev does not fire cron triggers
// itself. Extra arguments (`npm run dev -- --port 8788`) are passed to wrangler.
// The server and this script live and die together: wrangler runs in its own process group, which this script
// ends when it stops (Ctrl-C, a signal, a crash), and this script exits when the server does.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fillDemoTenant } from "./demo/fill.mjs";
import { startWebhookReceiver } from "./demo/receiver.mjs";
import { DEMO, demoSeedSql } from "./demo-seed.mjs";
import { ensureDevVars } from "./dev-vars.mjs";
import { applyMigrations } from "./migrate.mjs";

function run(args, options = {}) {
  const result = spawnSync("npx", ["wrangler", ...args], { stdio: "inherit", ...options });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const argument = (name) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
};

ensureDevVars();
const quiet = { env: { ...process.env, CI: "true" }, stdio: ["ignore", "ignore", "inherit"] };
const persistTo = argument("--persist-to");
const persist = persistTo ? ["--persist-to", persistTo] : [];
applyMigrations(["--local", ...persist]);

const seedFile = join(mkdtempSync(join(tmpdir(), "wms-seed-")), "demo.sql");
writeFileSync(seedFile, demoSeedSql());
// The demo tenant's directory row, owner and key live on the platform; its tables on SHARD_0.
run(["d1", "execute", "PLATFORM", "--local", ...persist, "--file", seedFile], quiet);

const port = argument("--port") ?? "8787";
const ip = argument("--ip");
const origin = `http://${ip && ip !== "0.0.0.0" ? ip : "localhost"}:${port}`;
const base = `${origin}/api/v1`;

// Its own process group (npx, wrangler, workerd), so one signal reaches all of it: npx does not pass signals on.
// Out of the terminal's foreground group it must not read the terminal, so wrangler's hotkeys are off (Ctrl-C
// reaches this script, which stops the group).
// The Worker reads nothing of `request.cf`, so wrangler need not fetch its placeholder from Cloudflare at each start
// (offline, that fetch failed with a stack trace in the output).
const wrangler = spawn("npx", ["wrangler", "dev", ...process.argv.slice(2)], {
  stdio: ["ignore", "inherit", "inherit"],
  detached: true,
  env: { CLOUDFLARE_CF_FETCH_ENABLED: "false", ...process.env },
});
const stopServer = (signal) => {
  try {
    process.kill(-wrangler.pid, signal);
  } catch {
    // already gone
  }
};
process.on("exit", () => stopServer("SIGTERM"));
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"])
  process.on(signal, () => {
    stopServer(signal);
    process.exit(128 + (signal === "SIGHUP" ? 1 : signal === "SIGINT" ? 2 : 15));
  });
wrangler.on("exit", (code, signal) => {
  if (signal || code) console.error(`[dev] the server stopped (${signal ?? `exit code ${code}`})`);
  process.exit(code ?? 1);
});

async function answers() {
  try {
    return (await fetch(`${base}/health`)).ok;
  } catch {
    return false;
  }
}
while (!(await answers())) await new Promise((resolve) => setTimeout(resolve, 500));
const receiver = await startWebhookReceiver();

// Miniflare's trigger for the scheduled handler (wrangler's --test-scheduled `/__scheduled` is the older name).
const scheduled = `${origin}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`;
setInterval(() => {
  fetch(scheduled).then(
    (response) => response.ok || console.error(`[dev] the scheduled job answered ${response.status}`),
    () => undefined, // the server is restarting (a rebuild): the next minute tries again
  );
}, 60_000);

// The browser tests make their own tenants and leave the demo tenant's request budget to the sign-in tests.
if (process.env.WMS_DEMO_DATA !== "skip") {
  try {
    await fillDemoTenant(base, DEMO, { persist, receiverUrl: receiver.url });
  } catch (error) {
    console.error(`[demo] the demo data stopped: ${error.message}`);
  }
}
console.log(`
Web app: ${origin}/app/   (sign in with ${DEMO.email} / ${DEMO.password})

Demo tenant "${DEMO.tenantName}" (business plan) is ready:
  tenant id  ${DEMO.tenantId}
  owner      ${DEMO.email} / ${DEMO.password}
  admin key  ${DEMO.apiKey}

  curl -H "X-API-Key: ${DEMO.apiKey}" ${base}/auth/me
  curl -X POST ${base}/auth/login -H "Content-Type: application/json" \\
       -d '{"email":"${DEMO.email}","password":"${DEMO.password}"}'
  Docs: ${base}/docs
  The scheduled job runs every minute (${scheduled}).
`);
