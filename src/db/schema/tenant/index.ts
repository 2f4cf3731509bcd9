// Tenant tables: every row belongs to one tenant (tenant_id) and moves with it. Reached only through
// `dbFor` (see src/db/README.md). They live on the shards, `tenants` on the platform database: no foreign
// key can cross databases, the directory (`tenants.shard`) is the reference.
export * from "./audit";
export * from "./billing";
export * from "./catalog";
export * from "./events";
export * from "./fulfilment";
export * from "./holds";
export * from "./inventory";
export * from "./jobs";
export * from "./lots";
export * from "./merchants";
export * from "./moves";
export * from "./orders";
export * from "./refusals";
export * from "./returns";
