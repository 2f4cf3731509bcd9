// Apart from the middleware that resolves it (tenant.ts, which imports src/env.ts): the request's variables in
// src/env.ts hold a tenant, and src/env.ts imports nothing that imports it back.
export type Plan = "starter" | "business" | "enterprise";

/** The tenant a request acts on, as the directory answered it. */
export interface Tenant {
  id: string;
  name: string;
  plan: Plan;
  status: "active" | "suspended";
  /** The shard holding its tables, as the directory said in this request's lookup. */
  shard: string;
}
