// `npm run dev`: apply local D1 migrations (the platform and every shard), seed the demo tenant, then serve
// with wrangler dev.
// Extra arguments (`npm run dev -- --port 8788`) are passed to wrangler.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, demoSeedSql } from "./demo-seed.mjs";
import { ensureDevVars } from "./dev-vars.mjs";
import { applyMigrations } from "./migrate.mjs";

function run(args, options = {}) {
  const result = spawnSync("npx", ["wrangler", ...args], { stdio: "inherit", ...options });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

ensureDevVars();
const quiet = { env: { ...process.env, CI: "true" }, stdio: ["ignore", "ignore", "inherit"] };
const persist = process.argv.slice(2).includes("--persist-to")
  ? ["--persist-to", process.argv[process.argv.indexOf("--persist-to") + 1]]
  : [];
applyMigrations(["--local", ...persist]);

const seedFile = join(mkdtempSync(join(tmpdir(), "wms-seed-")), "demo.sql");
writeFileSync(seedFile, demoSeedSql());
// The demo tenant's directory row, owner and key live on the platform; its tables on SHARD_0.
run(["d1", "execute", "PLATFORM", "--local", ...persist, "--file", seedFile], quiet);

const portIndex = process.argv.indexOf("--port");
const port = portIndex > 0 ? process.argv[portIndex + 1] : "8787";
const origin = `http://localhost:${port}`;
const base = `${origin}/api/v1`;
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
`);
run(["dev", ...process.argv.slice(2)]);
