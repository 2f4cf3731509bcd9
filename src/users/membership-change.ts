import { type Role, roles } from "../auth/scopes";

type Membership = { role: Role; merchantId: string | null };

/**
 * How the audit log names a membership change: `member.restricted` when it now acts for a merchant it did not,
 * `member.demoted` to a role further down `roles` (owner first), else `member.role_changed`.
 */
export function membershipChange(before: Membership, after: Membership) {
  if (after.merchantId !== null && after.merchantId !== before.merchantId)
    return "member.restricted" as const;
  if (roles.indexOf(after.role) > roles.indexOf(before.role)) return "member.demoted" as const;
  return "member.role_changed" as const;
}
