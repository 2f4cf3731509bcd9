import { defineConfig } from "drizzle-kit";

// drizzle-kit only generates SQL here; wrangler applies it (locally, in tests and in production).
export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/db/schema/platform/index.ts", "./src/db/schema/tenant/index.ts"],
  out: "./migrations",
});
