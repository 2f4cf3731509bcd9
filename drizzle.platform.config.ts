import { defineConfig } from "drizzle-kit";

// The platform database (binding PLATFORM). drizzle-kit only generates SQL; scripts/migrate.mjs and the
// vitest setup apply it (docs/decisions/scale-out.md).
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema/platform/index.ts",
  out: "./migrations/platform",
});
