// `npm run bench` runs every benchmark in bench/ (or only those named: `npm run bench -- health catalog`).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const all = readdirSync(here)
  .filter(
    (file) => file.endsWith(".mjs") && !["lib.mjs", "jobs-lib.mjs", "run.mjs", "soak.mjs"].includes(file),
  )
  .map((file) => file.replace(/\.mjs$/, ""));
const chosen = wanted.length ? all.filter((name) => wanted.includes(name)) : all;

console.log(`# Benchmarks ${new Date().toISOString()} (${chosen.join(", ")})`);
for (const name of chosen) {
  const result = spawnSync("node", [join(here, `${name}.mjs`)], { stdio: "inherit" });
  if (result.status !== 0) process.exitCode = 1;
}
