import { defineConfig } from "vitest/config";

// End-to-end tests: Debian's Chromium (playwright-core, no browser download) drives the web app and the docs
// page served by a real `wrangler dev` (started once by the global setup, with its own fresh local state).
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["**/*.e2e.ts"],
    globalSetup: ["./support/server.ts"],
    // One browser and one server on a shared 2-core machine: files run one after another.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A shared machine under load (and a network that loses answers, e2e/support/browser.ts) is slow, never wrong.
    expect: { poll: { timeout: 10_000 } },
  },
});
