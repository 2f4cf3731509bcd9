// The Worker under `wrangler dev` for the soak: its own state directory, fault injection switched on, cron
// triggers reachable (/__scheduled), its log kept in a file, and a restart that keeps the state.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream } from "node:fs";
import { join, resolve } from "node:path";
import { ensureDevVars } from "../../scripts/dev-vars.mjs";
import { applyMigrations } from "../../scripts/migrate.mjs";
import { waitFor } from "../wait-for.mjs";

const root = resolve(import.meta.dirname, "../..");

/** Starts the API on `port` with state in `stateDir` (wiped first); `restart()` kills and starts it again. */
export async function startServer({ port, inspectorPort, stateDir, logFile, faults }) {
  ensureDevVars();
  spawnSync("rm", ["-rf", stateDir]);
  // The platform database and every shard, as `npm run dev` migrates them.
  applyMigrations(["--local", "--persist-to", stateDir]);
  const log = createWriteStream(logFile, { flags: "a" });
  const url = `http://127.0.0.1:${port}`;
  let child;
  const start = async () => {
    const args = ["wrangler", "dev", "--port", String(port), "--ip", "127.0.0.1"];
    args.push("--inspector-port", String(inspectorPort), "--persist-to", stateDir, "--test-scheduled");
    if (faults) args.push("--var", "FAULT_INJECTION:on");
    child = spawn("npx", args, {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
      env: { ...process.env, CI: "true" },
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
