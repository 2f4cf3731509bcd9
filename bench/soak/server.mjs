// The Worker under `wrangler dev` for the soak: its own state directory, fault injection switched on, cron
// triggers reachable (/__scheduled), its log kept in a file, and a restart that keeps the state.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ensureDevVars } from "../../scripts/dev-vars.mjs";
import { applyMigrations } from "../../scripts/migrate.mjs";
import { waitFor } from "../wait-for.mjs";

const root = resolve(import.meta.dirname, "../..");

/** How many webhook queue messages one local consumer invocation takes (wrangler.toml says 10). */
export const SOAK_BATCH_SIZE = 100;

/**
 * wrangler.toml as the soak runs it: the same Worker, bindings and database ids (so the same local files), its
 * paths made absolute (the copy lives under .wrangler/), and the webhook consumer taking SOAK_BATCH_SIZE
 * messages a batch. Locally one consumer invocation runs at a time, where Cloudflare runs many side by side;
 * with batches of 10, each as slow as its slowest receiver, the local queue delivers a few messages a second
 * and the soak would measure that backlog instead of what the service loses.
 */
function soakConfig() {
  const absolute = (path) => `"${join(root, path)}"`;
  let toml = readFileSync(join(root, "wrangler.toml"), "utf8")
    .replace(/^main = "([^"]+)"/m, (_, path) => `main = ${absolute(path)}`)
    .replace(/^command = "node ([^"]+)"/m, (_, path) => `command = "node ${join(root, path)}"`)
    .replace(
      /^watch_dir = \[([^\]]*)\]/m,
      (_, list) => `watch_dir = [${list.replace(/"([^"]+)"/g, (_m, path) => absolute(path))}]`,
    )
    .replace(/^directory = "([^"]+)"/gm, (_, path) => `directory = ${absolute(path)}`)
    .replace(/^migrations_dir = "([^"]+)"/gm, (_, path) => `migrations_dir = ${absolute(path)}`);
  const consumer = /(\[\[queues\.consumers\]\]\nqueue = "webhook-deliveries"\nmax_batch_size = )10\n/;
  if (!consumer.test(toml))
    throw new Error("wrangler.toml's webhook consumer is not where the soak expects it");
  toml = toml.replace(consumer, `$1${SOAK_BATCH_SIZE}\n`);
  const dir = join(root, ".wrangler", "soak");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "wrangler.toml"), toml);
  return join(dir, "wrangler.toml");
}

/** Starts the API on `port` with state in `stateDir` (wiped first); `restart()` kills and starts it again. */
export async function startServer({ port, inspectorPort, stateDir, logFile, faults }) {
  ensureDevVars();
  spawnSync("rm", ["-rf", stateDir]);
  // The platform database and every shard, as `npm run dev` migrates them.
  applyMigrations(["--local", "--persist-to", stateDir]);
  const config = soakConfig();
  const log = createWriteStream(logFile, { flags: "a" });
  const url = `http://127.0.0.1:${port}`;
  let child;
  const start = async () => {
    const args = ["wrangler", "dev", "--config", config, "--env-file", join(root, ".dev.vars")];
    args.push("--port", String(port), "--ip", "127.0.0.1");
    args.push("--inspector-port", String(inspectorPort), "--persist-to", stateDir, "--test-scheduled");
    if (faults) args.push("--var", "FAULT_INJECTION:on");
    child = spawn("npx", args, {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
      // A registry of its own: another `wrangler dev` on the machine (a test suite, `npm run dev`) joining or
      // leaving the shared one reloads every running Worker, cutting its requests and webhook deliveries mid-way.
      env: {
        ...process.env,
        CI: "true",
        WRANGLER_REGISTRY_PATH: join(root, ".wrangler", "soak", "registry"),
      },
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    await waitFor(`${url}/api/v1/health`, 120_000);
  };
  const stop = () =>
    new Promise((done) => {
      if (!child || child.exitCode !== null) return done();
      child.once("exit", () => done());
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        done();
      }
    });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));
  process.on("exit", () => {
    try {
      if (child) process.kill(-child.pid, "SIGKILL");
    } catch {}
  });
  await start();
  return {
    url,
    api: `${url}/api/v1`,
    stop,
    /** The isolate and everything in memory (queued messages included) go; the stored state stays. */
    async restart() {
      await stop();
      await start();
    },
    /** Runs the cron sweeps once, as the every-minute trigger does in production. */
    async cron() {
      await fetch(`${url}/__scheduled?cron=${encodeURIComponent("* * * * *")}`).catch(() => {});
    },
  };
}

export const stateFiles = (stateDir) => join(stateDir, "v3", "d1");
