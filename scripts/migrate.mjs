// Applies the D1 migrations to the platform database and to every shard wrangler.toml declares: PLATFORM
// gets migrations/platform, each SHARD_<n> migrations/shard (its migrations_dir), so a shard added later gets
// every shard migration. Used by `npm run dev`, the benchmarks and `npm run deploy`.
//   node scripts/migrate.mjs [--persist-to <dir>]          local state (wrangler dev's)
//   node scripts/migrate.mjs --remote --env production     the deployed databases
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The D1 binding names declared at wrangler.toml's top level, or under [env.<environment>]. */
export function d1Bindings(environment) {
  const wanted = environment ? `[[env.${environment}.d1_databases]]` : "[[d1_databases]]";
  const names = [];
  let table = "";
  for (const line of readFileSync(`${root}/wrangler.toml`, "utf8").split("\n")) {
    if (line.startsWith("[")) table = line.trim();
    const binding = /^binding\s*=\s*"([^"]+)"/.exec(line);
    if (table === wanted && binding) names.push(binding[1]);
  }
  return names;
}

/** Applies every binding's migrations; `target` is ["--local", "--persist-to", dir] or ["--remote", "--env", name]. */
export function applyMigrations(target = ["--local"], environment = undefined) {
  for (const binding of d1Bindings(environment)) {
    const result = spawnSync("npx", ["wrangler", "d1", "migrations", "apply", binding, ...target], {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, CI: "true" },
    });
    if (result.status !== 0) throw new Error(`could not apply the migrations of ${binding}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const envIndex = args.indexOf("--env");
  const environment = envIndex >= 0 ? args[envIndex + 1] : undefined;
  applyMigrations(args.includes("--remote") ? args : ["--local", ...args], environment);
}
