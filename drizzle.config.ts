import { defineConfig } from "drizzle-kit";

// drizzle-kit only generates SQL here; wrangler applies it (locally, in tests and in production).
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema/index.ts",
  out: "./migrations",
});
