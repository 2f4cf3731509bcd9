// The web app's first load: bytes of JavaScript and CSS a browser fetches to show /app/ (goal: <= 120 KB of
// gzipped JavaScript). Builds first. No server, no timing.
// Run: npm run bench -- web   (or: node bench/web.mjs)
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { buildWeb } from "../scripts/build-web.mjs";

const GOAL_GZIP_JS = 120 * 1024;
const dist = join(dirname(fileURLToPath(import.meta.url)), "../web/dist");
await buildWeb({ force: true });

const html = readFileSync(join(dist, "app/index.html"), "utf8");
const referenced = [...html.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+)"/g)].map((m) => m[1]);

function sizes(files) {
  const bytes = files.map((file) => readFileSync(join(dist, "app", file)));
  const sum = (f) => bytes.reduce((total, b) => total + f(b), 0);
  return {
    raw: sum((b) => b.length),
    gzip: sum((b) => gzipSync(b, { level: 9 }).length),
    brotli: sum((b) => brotliCompressSync(b).length),
  };
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const rows = {
  "first load JavaScript": sizes(referenced.filter((f) => f.endsWith(".js"))),
  "first load CSS": sizes(referenced.filter((f) => f.endsWith(".css"))),
};
console.log("\n## web app first load (built with Vite)");
console.log("| what | raw | gzip -9 | brotli |");
console.log("| --- | --- | --- | --- |");
for (const [name, s] of Object.entries(rows))
  console.log(`| ${name} | ${kb(s.raw)} | ${kb(s.gzip)} | ${kb(s.brotli)} |`);
const js = rows["first load JavaScript"].gzip;
console.log(
  `\nJavaScript up to a signed-in page, gzipped: ${kb(js)} (goal <= ${kb(GOAL_GZIP_JS)}: ${js <= GOAL_GZIP_JS ? "met" : "MISSED"})`,
);
