import type { AuditActor } from "../db/audit/writer";
import type { AppContext } from "../env";

/**
 * Who acts in this request's audit entries: the credential (a member, or a key with the keys that made it and the
 * member accountable for it), or without one the platform operator (`anonymousAs`, its routes) or nobody (a failed
 * sign-in); from where
 * (CF-Connecting-IP, User-Agent) and in which request. One per request, so seal-after.ts finds what it wrote.
 */
export function auditActor(c: AppContext, anonymousAs: "platform" | "anonymous" = "anonymous"): AuditActor {
  const known = c.get("auditActor");
  if (known) return known;
  const principal = c.get("principal");
  const origin = {
    merchantId: c.get("merchantId") ?? null,
    ip: c.req.header("cf-connecting-ip") ?? null,
    userAgent: c.req.header("user-agent")?.slice(0, 512) ?? null,
    requestId: c.get("requestId") ?? null,
    written: new Set<AuditActor["written"] extends Set<infer H> ? H : never>(),
  };
  const actor: AuditActor = !principal
    ? { type: anonymousAs, id: null, chain: [], ...origin }
    : principal.type === "user"
      ? { type: "user", id: principal.id, chain: [{ type: "user", id: principal.id }], ...origin }
      : {
          type: "api_key",
          id: principal.id,
          chain: [
            { type: "api_key", id: principal.id },
            ...principal.grantorKeys.toReversed().map((id) => ({ type: "api_key", id })),
            { type: "user", id: principal.creatorId },
          ],
          ...origin,
        };
  c.set("auditActor", actor);
  return actor;
}
