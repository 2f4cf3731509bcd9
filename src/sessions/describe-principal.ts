import type { Principal } from "../auth/principal";
import type { PlatformDb } from "../db/client";
import { sessionUser } from "../identity/session";

/** `GET /auth/me`: the user and their memberships, or the key's tenant, scopes and merchant. */
export async function describePrincipal(db: PlatformDb, principal: Principal) {
  if (principal.type === "api_key") {
    return {
      type: "api_key" as const,
      apiKey: { id: principal.id, scopes: [...principal.scopes], merchantId: principal.merchantId },
      tenant: (({ id, name, plan, status }) => ({ id, name, plan, status }))(principal.tenant),
    };
  }
  return { type: "user" as const, user: await sessionUser(db, principal.id) };
}
