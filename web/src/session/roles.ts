// The role table and the scope list are the API's own (src/auth/scopes.ts), bundled into the app the way the
// generated client types are imported: one definition, so the app never offers what the API would refuse.
import { grants, type Role, roles, type Scope, scopes, scopesByRole } from "../../../src/auth/scopes";

export { type Role, roles, type Scope };

/** The scopes a member of `role` may put on a key: those its role grants (the API refuses any other). */
export const grantableScopes = (role: Role): Scope[] =>
  scopes.filter((scope) => grants(scopesByRole[role], scope));

export const isAdmin = (role: Role | undefined) => role !== undefined && scopesByRole[role].includes("admin");

/** Whether a member of `role` may read billing (rate cards, charges, invoices): `billing`, which `admin` implies. */
export const canBill = (role: Role | undefined) =>
  role !== undefined && grants(scopesByRole[role], "billing");
