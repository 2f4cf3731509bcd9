// A Consistency-Token as a client holds it after the server's `WEBHOOK_SECRET_KEY` rotated: sealed for the tenant
// by the server's own code (src/db/consistency-token.ts, bundled here with esbuild) under the key it had before.
// The server under test has the development key, so to it this token is exactly one sealed under a retired key:
// it refuses it as 400 (docs/decisions/scale-out.md), and each client must drop it and retry once without it.
import { join } from "node:path";
import { build } from "esbuild";

const root = join(import.meta.dirname, "../..");
const RETIRED_KEY = "the-webhook-secret-key-before-rotation-0123456789";

/** `sealConsistencyToken` as the Worker bundles it. */
async function serverSealing() {
  const bundled = await build({
    entryPoints: [join(root, "src/db/consistency-token.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  });
  const code = bundled.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
}

/** A token for `tenantId` sealed under the retired key: a real shard and bookmark, as the server once sent it. */
export async function rotatedKeyToken(tenantId) {
  const { sealConsistencyToken } = await serverSealing();
  return sealConsistencyToken(RETIRED_KEY, tenantId, { shard: "SHARD_0", bookmark: "0" });
}
