// Tenant tables: every row belongs to one tenant (tenant_id) and moves with it. Reached only through
// `dbFor` (see src/db/README.md). Their `references(() => tenants.id)` hold while tenants share one
// database with the platform; a tenant database of its own carries no such foreign key.
export * from "./catalog";
export * from "./events";
export * from "./inventory";
export * from "./lots";
export * from "./orders";
