import { join } from "node:path";
import { defineConfig } from "vitest/config";

// The client's tests run in Node against the live API the harness (clients/harness/run.mjs) started, and
// import the package as users do: its built output (npm run build), not its sources.
export default defineConfig({
  root: import.meta.dirname,
  resolve: { alias: { "@warehouse-api/client": join(import.meta.dirname, "dist/index.js") } },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
