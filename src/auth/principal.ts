import type { Scope } from "./scopes";
import type { Tenant } from "./tenant-record";

/** Who is calling, as established by authentication (before the tenant is resolved). */
export type Principal =
  | { type: "user"; id: string; tokenId: string; sessionId: string | undefined }
  | {
      type: "api_key";
      id: string;
      /** The member accountable for the key: its scopes are capped by this user's current role. */
      creatorId: string;
      /** The keys that made it, its maker last (empty: a member made it), as its audit entries name them. */
      grantorKeys: string[];
      scopes: Scope[];
      tenant: Tenant;
      /** The merchant the key acts for (null: the whole tenant). */
      merchantId: string | null;
    };

/** The user accountable for what a credential creates: the user, or the member who created the key. */
export function accountableUser(principal: Principal): string {
  return principal.type === "user" ? principal.id : principal.creatorId;
}

/** Who made a change and in which request: recorded on ledger rows and status histories. */
export interface Actor {
  actorType: "user" | "api_key";
  actorId: string;
  requestId: string;
}

/** The request's actor, as recorded in ledgers and histories. */
export function actorOf(c: { var: { principal: Principal; requestId: string } }): Actor {
  const { principal } = c.var;
  return { actorType: principal.type, actorId: principal.id, requestId: c.var.requestId };
}
