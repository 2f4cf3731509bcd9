// Builds the Worker's static assets (wrangler.toml [assets] directory = web/dist):
//   web/dist/app/   the web application (Vite, base /app/)
//   web/dist/docs/  the API reference page and Scalar's standalone bundle (no CDN)
// Skips the build when web/dist was built from the same inputs (a hash of web/, the API modules it imports and
// the lock file), so every `wrangler dev` start (wrangler.toml [build]) and every vitest run can call it for free.
// Usage: node scripts/build-web.mjs [--force]
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const web = join(root, "web");
const dist = join(web, "dist");
const stampFile = join(dist, ".inputs-hash");
const lockFile = join(web, ".build.lock");
const scalarBundle = join(root, "node_modules/@scalar/api-reference/dist/browser/standalone.js");

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "dist" || entry.name === "node_modules" ? [] : filesUnder(path);
    return [path];
  });
}

/** The API's own modules the app bundles (its role table, its event catalogue), read from the app's imports. */
function apiModulesImported() {
  const modules = filesUnder(join(web, "src")).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/from "((?:\.\.\/)+src\/[^"]+)"/g)].map(
      ([, specifier]) => `${join(dirname(file), specifier)}.ts`,
    ),
  );
  return [...new Set(modules)];
}

function inputsHash() {
  const hash = createHash("sha256");
  const inputs = [...filesUnder(web), ...apiModulesImported(), join(root, "package-lock.json")];
  for (const file of inputs.sort()) {
    if (file === lockFile) continue;
    hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

const readStamp = () => {
  try {
    return readFileSync(stampFile, "utf8");
  } catch {
    return "";
  }
};

function holderIsGone() {
  try {
    process.kill(Number(readFileSync(lockFile, "utf8")), 0);
    return false;
  } catch (error) {
    return error.code === "ESRCH" || error.code === "ENOENT";
  }
}

/**
 * Several `wrangler dev` may start at once in one checkout: one builds, the others wait and find it built.
 * The lock holds the builder's pid, so a build that was killed does not block the next one.
 */
async function withLock(work) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: "wx" });
      break;
    } catch {
      if (holderIsGone()) {
        rmSync(lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`${lockFile} is held for 2 minutes; remove it if no build runs`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lockFile, { force: true });
  }
}

/** The budget of the app's first load: its JavaScript, gzipped (docs/decisions/web-app.md). */
export const FIRST_LOAD_GZIP_JS_BUDGET = 120 * 1024;

/** Bytes of the files `/app/index.html` loads (JavaScript and CSS), raw, gzipped (-9) and brotli. */
export function firstLoadSizes() {
  const html = readFileSync(join(dist, "app/index.html"), "utf8");
  const referenced = [...html.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+)"/g)].map((m) => m[1]);
  const sizes = (files) => {
    const bytes = files.map((file) => readFileSync(join(dist, "app", file)));
    const sum = (f) => bytes.reduce((total, b) => total + f(b), 0);
    return {
      raw: sum((b) => b.length),
      gzip: sum((b) => gzipSync(b, { level: 9 }).length),
      brotli: sum((b) => brotliCompressSync(b).length),
    };
  };
  return {
    js: sizes(referenced.filter((f) => f.endsWith(".js"))),
    css: sizes(referenced.filter((f) => f.endsWith(".css"))),
  };
}

export async function buildWeb({ force = false } = {}) {
  const hash = inputsHash();
  if (!force && readStamp() === hash) return false;
  return withLock(async () => {
    if (!force && readStamp() === hash) return false;
    const { build } = await import("vite");
    rmSync(stampFile, { force: true });
    await build({ configFile: join(web, "vite.config.ts"), logLevel: "warn" });
    // The budget is checked by every build: an app that outgrows it does not build (and so does not ship).
    const { gzip } = firstLoadSizes().js;
    if (gzip > FIRST_LOAD_GZIP_JS_BUDGET)
      throw new Error(
        `web: the first load's JavaScript is ${(gzip / 1024).toFixed(1)} KB gzipped, over the budget of ${FIRST_LOAD_GZIP_JS_BUDGET / 1024} KB`,
      );
    const docs = join(dist, "docs");
    rmSync(docs, { recursive: true, force: true });
    mkdirSync(docs, { recursive: true });
    for (const file of ["index.html", "docs-page.js"])
      copyFileSync(join(web, "docs", file), join(docs, file));
    if (!existsSync(scalarBundle)) throw new Error(`${scalarBundle} is missing: run \`npm ci\``);
    copyFileSync(scalarBundle, join(docs, "scalar-api-reference.js"));
    writeFileSync(stampFile, hash);
    return true;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const built = await buildWeb({ force: process.argv.includes("--force") });
  console.log(built ? `web: built web/dist in ${Date.now() - started} ms` : "web: web/dist is up to date");
}
