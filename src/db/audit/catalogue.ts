// The one catalogue of audited actions (docs/decisions/audit-log.md): `<target>.<verb>`. An entry's action is one
// of these; the list's `action` filter accepts these names and `<target>.*` families.
export const auditActions = [
  // Sign-ins (one entry in each tenant the person is a member of).
  "session.signed_in",
  "session.sign_in_failed",
  // Credentials and people.
  "api_key.created",
  "api_key.revoked",
  "member.invited",
  "invitation.revoked",
  "member.joined",
  "member.restricted",
  "member.demoted",
  "member.role_changed",
  "member.removed",
  // Integrations and configuration.
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.secret_rotated",
  "settings.updated",
  "carrier.updated",
  "carrier.deleted",
  "merchant.created",
  "merchant.updated",
  "merchant.deleted",
  // Billing.
  "rate_card.created",
  "invoice.created",
  "invoice.voided",
  // The platform operator's.
  "tenant.created",
  "tenant.updated",
  "tenant.move_started",
] as const;

export type AuditAction = (typeof auditActions)[number];
