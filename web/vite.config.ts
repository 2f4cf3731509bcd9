import { defineConfig } from "vite";

// The web application, served by the Worker at /app/ from its static assets (wrangler.toml [assets]).
// Preact's JSX is compiled by Vite's own Oxc transform: no Babel preset needed.
export default defineConfig({
  root: import.meta.dirname,
  base: "/app/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist/app",
    emptyOutDir: true,
    target: "es2022",
    reportCompressedSize: false,
  },
});
