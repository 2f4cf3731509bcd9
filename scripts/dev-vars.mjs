// Development secrets live in .dev.vars (git-ignored), never in wrangler.toml: a plain `wrangler deploy`
// must not carry them. Every local entry point (npm run dev, the tests, the benchmarks) calls this first.
import { copyFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Copies .dev.vars.example to .dev.vars unless the developer already has one. */
export function ensureDevVars() {
  const target = join(root, ".dev.vars");
  if (!existsSync(target)) copyFileSync(join(root, ".dev.vars.example"), target);
}
