import { defineConfig } from "drizzle-kit";

// Every shard (bindings SHARD_<n>) gets these migrations, a shard added later included. drizzle-kit only
// generates SQL; scripts/migrate.mjs and the vitest setup apply it (docs/decisions/scale-out.md).
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema/tenant/index.ts",
  out: "./migrations/shard",
});
