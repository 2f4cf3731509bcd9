// `npm run dev`: apply local D1 migrations, then serve with wrangler dev.
// Extra arguments (`npm run dev -- --port 8788`) are passed to wrangler.
import { spawnSync } from "node:child_process";

function run(args, options = {}) {
  const result = spawnSync("npx", ["wrangler", ...args], { stdio: "inherit", ...options });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run(["d1", "migrations", "apply", "DB", "--local"], { env: { ...process.env, CI: "true" } });
run(["dev", ...process.argv.slice(2)]);
