// `npm run test:clients [-- typescript python dotnet php]`: runs every client's tests against a live API.
// Starts the app as `npm run dev` does (fresh local state, free ports), checks that the generated client code
// matches the served OpenAPI document, creates each language's tenants through POST /platform/tenants, puts
// a fault-injecting proxy (proxy.mjs) in front of the API for each language, spends each Starter tenant's
// rate budget up front (so the 429 test at the end of each suite waits only the rest of the minute), then runs
// the four suites at once. URLs and credentials reach the tests through WAREHOUSE_* environment variables.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/free-port.mjs";
import { startProxy } from "./proxy.mjs";
import { rotatedKeyToken } from "./rotated-token.mjs";

const root = join(import.meta.dirname, "../..");
const SUITE_TIMEOUT_MS = 8 * 60_000;

function pythonWithPytest() {
  for (const python of ["python3", "/usr/bin/python3"]) {
    const probe = spawnSync(python, ["-c", "import sys, pytest; assert sys.version_info >= (3, 9)"]);
    if (probe.status === 0) return python;
  }
  return null;
}

const has = (command) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;

// Last in each suite: the client installed exactly as its README says, from a clean temporary folder (install.mjs).
const install = (language) => [process.execPath, "clients/harness/install.mjs", language];

/** Each language: the tool it needs (with the Debian package) and the commands that build and test it. */
const LANGUAGES = {
  typescript: {
    missing: () => null,
    commands: () => [
      ["npx", "tsc", "-p", "clients/typescript"],
      ["npx", "tsc", "-p", "clients/typescript/test"],
      ["npx", "vitest", "run", "--config", "clients/typescript/vitest.config.ts"],
      install("typescript"),
    ],
  },
  python: {
    missing: () =>
      pythonWithPytest() ? null : "python3 (3.9+) with pytest: apt-get install python3 python3-pytest",
    commands: () => [
      [pythonWithPytest(), "-m", "pytest", "-q", "-p", "no:cacheprovider", "clients/python/tests"],
      install("python"),
    ],
  },
  dotnet: {
    missing: () =>
      has("mono") && has("mcs") && has("nuget")
        ? null
        : "Mono and NuGet: apt-get install mono-complete nuget",
    commands: () => [["bash", "clients/dotnet/test-mono.sh"], install("dotnet")],
  },
  php: {
    missing: () =>
      has("php") && has("phpunit") && has("composer")
        ? null
        : "php, phpunit and composer: apt-get install php-cli php-curl phpunit composer",
    commands: () => [
      // No PHP static analyser is packaged by Debian (docs/decisions/clients.md): every file at least parses (what
      // `php -l` checks, in one process: one `php -l` per file takes minutes on a loaded machine).
      ["php", "clients/php/tests/lint.php"],
      [
        "phpunit",
        "--do-not-cache-result",
        "--bootstrap",
        "clients/php/tests/bootstrap.php",
        "clients/php/tests",
      ],
      install("php"),
    ],
  },
};

/** The platform operator token of the development configuration (.dev.vars, its example, or wrangler.toml). */
function platformToken() {
  for (const file of [".dev.vars", ".dev.vars.example", "wrangler.toml"]) {
    const path = join(root, file);
    if (!existsSync(path)) continue;
    const match = readFileSync(path, "utf8").match(/^PLATFORM_ADMIN_TOKEN\s*=\s*"?([^"\n]+)"?/m);
    if (match) return match[1];
  }
  throw new Error("no PLATFORM_ADMIN_TOKEN in .dev.vars, .dev.vars.example or wrangler.toml");
}

async function startApi(stateDir) {
  const port = await freePort();
  const inspectorPort = await freePort();
  const logFile = join(stateDir, "wrangler-dev.log");
  const log = createWriteStream(logFile);
  const server = spawn(
    process.execPath,
    [
      "scripts/dev.mjs",
      ...["--port", String(port), "--ip", "127.0.0.1", "--inspector-port", String(inspectorPort)],
      ...["--persist-to", join(stateDir, "state")],
    ],
    { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, CI: "true" } },
  );
  server.stdout.pipe(log);
  server.stderr.pipe(log);
  const origin = `http://127.0.0.1:${port}`;
  const stop = () => {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {}
  };
  // Migrations alone take minutes on a loaded machine (docs/decisions/first-run.md: about 5 at load average 18).
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      if ((await fetch(`${origin}/api/v1/health`)).ok) return { origin, stop, logFile };
    } catch {}
    if (server.exitCode !== null || Date.now() > deadline) {
      stop();
      throw new Error(
        `the API did not start; see ${logFile}:\n${readFileSync(logFile, "utf8").slice(-3000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function createTenant(origin, token, name, plan) {
  const unique = `${name}-${Date.now().toString(36)}`;
  const password = `pw-${Math.random().toString(36).slice(2)}-Harness1`;
  const response = await fetch(`${origin}/api/v1/platform/tenants`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: `Clients ${unique}`,
      plan,
      owner: { email: `${unique}@clients.example.com`, password, name: `Owner ${name}` },
    }),
  });
  const body = await response.json();
  if (response.status !== 201)
    throw new Error(`POST /platform/tenants: ${response.status} ${JSON.stringify(body)}`);
  return { id: body.data.tenant.id, apiKey: body.data.apiKey.key, email: body.data.owner.email, password };
}

/** Spends a tenant's whole rate budget now: its next request is refused until the oldest of these expires. */
async function spendBudget(origin, apiKey) {
  for (let sent = 0; sent < 1000; sent++) {
    const response = await fetch(`${origin}/api/v1/products?pageSize=1`, {
      headers: { "x-api-key": apiKey },
    });
    await response.arrayBuffer();
    if (response.status === 429) return sent;
  }
  throw new Error("a Starter tenant was never rate limited");
}

function runSuite(name, commands, env) {
  const started = Date.now();
  let output = "";
  const runNext = async (index) => {
    if (index >= commands.length) return 0;
    const [command, ...args] = commands[index];
    output += `$ ${[command, ...args].join(" ")}\n`;
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, detached: true });
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => {
      output += `\n${name}: timed out after ${SUITE_TIMEOUT_MS / 1000} s\n`;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }, SUITE_TIMEOUT_MS);
    const code = await new Promise((resolve) => {
      child.on("error", (error) => {
        output += `${error.message}\n`;
        resolve(1);
      });
      child.on("close", (status) => resolve(status ?? 1));
    });
    clearTimeout(timer);
    return code === 0 ? runNext(index + 1) : code;
  };
  return runNext(0).then((code) => ({ name, code, output, seconds: (Date.now() - started) / 1000 }));
}

const requested = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
const unknown = requested.filter((name) => !(name in LANGUAGES));
if (unknown.length > 0) {
  console.error(`unknown client ${unknown.join(", ")}; choose from ${Object.keys(LANGUAGES).join(", ")}`);
  process.exit(2);
}
const selected = requested.length > 0 ? requested : Object.keys(LANGUAGES);
const missing = selected.map((name) => [name, LANGUAGES[name].missing()]).filter(([, why]) => why);
if (missing.length > 0) {
  console.error(missing.map(([name, why]) => `${name}: needs ${why}`).join("\n"));
  process.exit(1);
}

const stateDir = mkdtempSync(join(tmpdir(), "wms-clients-"));
const closers = [];
let failed = true;
try {
  const api = await startApi(stateDir);
  closers.push(api.stop);
  console.log(`API at ${api.origin} (log: ${api.logFile})`);
  // Before any tenant request: the check blocks this process, and a keep-alive connection left idle meanwhile
  // can be closed by the server just as it is reused.
  const drift = spawnSync(process.execPath, ["scripts/generate-clients.ts", "--check", "--url", api.origin], {
    cwd: root,
    stdio: "inherit",
  });
  if (drift.status !== 0) throw new Error("generated client code is out of date");

  // The Starter budgets first: each suite's 429 test (its last) then waits only for what is left of this minute.
  const token = platformToken();
  const starters = await Promise.all(
    selected.map(async (name) => {
      const starter = await createTenant(api.origin, token, `${name}-starter`, "starter");
      const spent = await spendBudget(api.origin, starter.apiKey);
      return { ...starter, spent };
    }),
  );
  console.log(`Starter budgets spent (${starters.map(({ spent }) => spent).join(", ")} requests)`);

  const setups = await Promise.all(
    selected.map(async (name, index) => {
      const main = await createTenant(api.origin, token, name, "enterprise");
      const proxy = await startProxy({ port: await freePort(), upstream: api.origin });
      closers.push(proxy.close);
      return { name, main, starter: starters[index], proxy, rotatedToken: await rotatedKeyToken(main.id) };
    }),
  );
  console.log(`running ${selected.join(", ")}`);

  const results = await Promise.all(
    setups.map(({ name, main, starter, proxy, rotatedToken }) =>
      runSuite(name, LANGUAGES[name].commands(), {
        WAREHOUSE_BASE_URL: proxy.url,
        WAREHOUSE_API_KEY: main.apiKey,
        WAREHOUSE_TENANT_ID: main.id,
        WAREHOUSE_EMAIL: main.email,
        WAREHOUSE_PASSWORD: main.password,
        WAREHOUSE_STARTER_API_KEY: starter.apiKey,
        WAREHOUSE_WEBHOOK_URL: `${proxy.url}/__harness/webhooks`,
        WAREHOUSE_ROTATED_CONSISTENCY_TOKEN: rotatedToken,
        WAREHOUSE_OPERATIONS: join(root, "clients/operations.json"),
      }).then((result) => {
        console.log(
          `\n===== ${name} (${result.seconds.toFixed(1)} s, exit ${result.code}) =====\n${result.output}`,
        );
        return result;
      }),
    ),
  );
  console.log("\nclient suites:");
  for (const { name, code, seconds } of results) {
    console.log(`  ${code === 0 ? "pass" : "FAIL"}  ${name.padEnd(10)} ${seconds.toFixed(1)} s`);
  }
  failed = results.some(({ code }) => code !== 0);
} catch (error) {
  console.error(error instanceof Error ? error.message : error, error?.cause ?? "");
} finally {
  for (const close of closers.reverse()) await close();
  rmSync(stateDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
