import type { Schemas } from "../api/client";

export type Role = Schemas["Membership"]["role"];
export type Scope = Schemas["ApiKey"]["scopes"][number];

export const ALL_SCOPES: readonly Scope[] = [
  "read:products",
  "write:products",
  "read:inventory",
  "write:inventory",
  "read:orders",
  "write:orders",
  "admin",
];

const READS: Scope[] = ["read:products", "read:inventory", "read:orders"];

/** The API's role table (README, Authentication): what each role may do, and so which scopes it may grant. */
export const SCOPES_OF_ROLE: Record<Role, readonly Scope[]> = {
  owner: ALL_SCOPES,
  admin: ALL_SCOPES,
  manager: [
    "read:products",
    "write:products",
    "read:inventory",
    "write:inventory",
    "read:orders",
    "write:orders",
  ],
  operator: [...READS, "write:inventory", "write:orders"],
  viewer: READS,
};

export const ROLES: readonly Role[] = ["owner", "admin", "manager", "operator", "viewer"];

export const isAdmin = (role: Role | undefined) => role === "owner" || role === "admin";
