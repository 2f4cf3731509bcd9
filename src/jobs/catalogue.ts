import type { Scope } from "../auth/scopes";
import { jobTypes } from "../db/schema/tenant";

export { jobTypes };
export type JobType = (typeof jobTypes)[number];

/**
 * What each job type does and the scopes it needs, those of the data it writes or reads: `scope` to create or
 * cancel it, `read` to see it and its result. An events export needs the read scope of each event family it
 * holds (as the events feed does): `null` here, its types are checked one by one.
 */
export const jobKinds = {
  product_import: { kind: "import", scope: "write:products", read: "read:products" },
  stock_import: { kind: "import", scope: "write:inventory", read: "read:inventory" },
  products_export: { kind: "export", scope: "read:products", read: "read:products" },
  stock_export: { kind: "export", scope: "read:inventory", read: "read:inventory" },
  movements_export: { kind: "export", scope: "read:inventory", read: "read:inventory" },
  events_export: { kind: "export", scope: null, read: null },
} as const satisfies Record<JobType, { kind: "import" | "export"; scope: Scope | null; read: Scope | null }>;

export const isImport = (type: JobType) => jobKinds[type].kind === "import";
