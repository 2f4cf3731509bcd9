import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { freePort } from "../../scripts/free-port.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    origin: string;
    /** wrangler dev's stdout: the tests read the `[dev-mail]` lines the development mail sender writes. */
    serverLog: string;
  }
}

let server: ChildProcess | undefined;
let stateDir: string | undefined;

/**
 * Starts the app exactly as the README's `npm run dev` does (migrations, demo seed, build, wrangler dev, the demo
 * tenant filled through the API), on a free port with fresh local state, and waits for its banner: the day of the
 * warehouse runs on the demo tenant as a new user finds it (issue #45).
 */
export default async function setup(project: TestProject) {
  // A server already running (`E2E_ORIGIN`, its log in `E2E_SERVER_LOG`), for quick rounds while writing a test.
  if (process.env.E2E_ORIGIN && process.env.E2E_SERVER_LOG) {
    project.provide("origin", process.env.E2E_ORIGIN);
    project.provide("serverLog", process.env.E2E_SERVER_LOG);
    return;
  }
  const port = await freePort();
  const inspectorPort = await freePort();
  stateDir = mkdtempSync(join(tmpdir(), "wms-e2e-"));
  const serverLog = join(stateDir, "wrangler-dev.log");
  const log = createWriteStream(serverLog);
  // The file exists once the stream has opened it; reading it before (the loop below) would throw ENOENT.
  await once(log, "open");
  const root = join(import.meta.dirname, "../..");
  server = spawn(
    process.execPath,
    [
      "scripts/dev.mjs",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      join(stateDir, "state"),
    ],
    {
      cwd: root,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CI: "true" },
    },
  );
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);

  const origin = `http://127.0.0.1:${port}`;
  // Generous: on a shared machine under load, migrations, the build, wrangler's start and the demo data take minutes.
  const deadline = Date.now() + 600_000;
  // The banner, printed once the demo tenant is filled (scripts/dev.mjs).
  while (!readFileSync(serverLog, "utf8").includes("Demo tenant")) {
    if (server.exitCode !== null)
      throw new Error(`npm run dev exited with ${server.exitCode}; see ${serverLog}`);
    if (Date.now() > deadline) {
      if (server.pid) process.kill(-server.pid, "SIGTERM"); // no teardown runs when setup fails
      throw new Error(`npm run dev printed no banner within 600 s; see ${serverLog}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (/\[demo\].*(refused|could not|stopped)/.test(readFileSync(serverLog, "utf8"))) {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
    throw new Error(`the demo data was refused a step; see ${serverLog}`);
  }
  project.provide("origin", origin);
  project.provide("serverLog", serverLog);

  return () => {
    try {
      if (server?.pid) process.kill(-server.pid, "SIGTERM");
    } catch {}
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  };
}
