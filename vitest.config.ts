import { execFileSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { ensureDevVars } from "./scripts/dev-vars.mjs";

export default defineConfig(async () => {
  ensureDevVars();
  // wrangler.toml's [assets] directory (the web app and docs page) must exist; a no-op when it is up to date.
  execFileSync(process.execPath, ["scripts/build-web.mjs"], { stdio: "inherit" });
  // The platform's migrations go to PLATFORM, the shard migrations to every SHARD_<n> (apply-migrations.ts).
  const platformMigrations = await readD1Migrations("./migrations/platform");
  const shardMigrations = await readD1Migrations("./migrations/shard");
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: { TEST_PLATFORM_MIGRATIONS: platformMigrations, TEST_SHARD_MIGRATIONS: shardMigrations },
        },
      }),
    ],
    test: {
      setupFiles: ["./test/support/apply-migrations.ts"],
      include: ["test/**/*.test.ts"],
      // A test file mostly waits (on D1, queues, Durable Objects, timers): one file per core, and two on a 2-core CI
      // machine, where vitest's default (cores - 1) ran one file at a time with a core idle.
      maxWorkers: Math.max(2, availableParallelism()),
      // Generous for a loaded 2-core CI machine (setups create tenants through the API); never a speed check.
      testTimeout: 60_000,
      hookTimeout: 60_000,
      // The Worker's info lines (one per request, queue batch, cron and job run: src/observability) would bury the
      // output; warnings and errors still print. test/observability-logs.test.ts reads the info lines itself.
      onConsoleLog: (line: string) => !line.startsWith('{"level":"info"'),
    },
  };
});
