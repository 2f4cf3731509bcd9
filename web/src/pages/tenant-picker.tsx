import { chooseTenant, type SessionState, signOut } from "../session/session";
import { useDocumentTitle } from "../ui/title";

/** For a user who belongs to several tenants: which one to work in (switchable later from the header). */
export function TenantPicker({ session }: { session: SessionState }) {
  useDocumentTitle("Choose a tenant");
  const memberships = session.user?.memberships ?? [];
  return (
    <main id="main" class="card narrow">
      <h1>Choose a tenant</h1>
      {memberships.length === 0 ? (
        <p class="alert alert-info" role="status">
          You are not a member of any tenant yet. Ask an administrator for an invitation.
        </p>
      ) : (
        <ul class="tenant-list">
          {memberships.map((membership) => (
            <li key={membership.tenantId}>
              <button
                type="button"
                class="button tenant-choice"
                onClick={() => chooseTenant(membership.tenantId)}
              >
                <strong>{membership.tenantName}</strong>
                <span class="muted">{membership.role}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" class="button" onClick={() => void signOut()}>
        Sign out
      </button>
    </main>
  );
}
