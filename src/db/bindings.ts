/** The D1 bindings (wrangler.toml): read by src/db only, never by a module outside it. */
export interface DatabaseBindings {
  /** Today the one database holding the platform tables and every tenant's tables. */
  DB: D1Database;
}
