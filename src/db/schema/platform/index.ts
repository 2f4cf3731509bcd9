// Platform tables: who may act on which tenant (tenants, users, memberships, refresh tokens, the API key
// index). Reached only through `platformDb` (see src/db/README.md).

export * from "./audit";
export * from "./identity";
export * from "./moves";
