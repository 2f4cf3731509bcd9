import { defineConfig } from "vitest/config";

// End-to-end tests: Debian's Chromium (playwright-core, no browser download) drives the web app and the docs
// page served by a real `wrangler dev` (started once by the global setup, with its own fresh local state).
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["**/*.e2e.ts"],
    globalSetup: ["./support/server.ts"],
    // One server, two files at a time (each its own browser): a browser test mostly waits on the page and the server,
    // so one at a time left a core idle. Every file acts in its own tenant, except three that read the demo tenant
    // (sign-in, users, warehouse-day) without changing what another reads.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A shared machine under load (and a network that loses answers, e2e/support/browser.ts) is slow, never wrong.
    expect: { poll: { timeout: 10_000 } },
  },
});
