// Writes the OpenAPI document the Worker serves to a file, so CI can lint it and the web app's types follow it.
// Usage: node scripts/export-openapi.mjs <out-file>. Starts wrangler dev on a free port, fetches, stops.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { ensureDevVars } from "./dev-vars.mjs";
import { freePort } from "./free-port.mjs";

const out = process.argv[2] ?? "openapi.json";
ensureDevVars();
const port = await freePort();
const inspectorPort = await freePort();
const server = spawn(
  "npx",
  ["wrangler", "dev", "--port", String(port), "--ip", "127.0.0.1", "--inspector-port", String(inspectorPort)],
  { stdio: ["ignore", "ignore", "inherit"], detached: true },
);
const stop = () => {
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {}
};

try {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`);
      if (response.ok) {
        writeFileSync(out, JSON.stringify(await response.json(), null, 2));
        console.log(`wrote ${out}`);
        break;
      }
    } catch {}
    if (Date.now() > deadline) throw new Error("wrangler dev did not answer within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
} finally {
  stop();
}
