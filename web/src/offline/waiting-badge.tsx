import { useEffect } from "preact/hooks";
import type { SessionState } from "../session/session";
import { sendWaiting, useWrites } from "./queue";

/**
 * The top bar's count of the scans stored on this device that wait to reach the server (and of those it refused),
 * linking to their list. Signing in, choosing a tenant or the session coming back online sends what waits: a
 * reload or a crash's reopening picks up where the last page stopped.
 */
export function WaitingBadge({ session }: { session: SessionState }) {
  const { waiting, refused } = useWrites();
  useEffect(() => {
    void sendWaiting();
  }, [session.user?.id, session.tenantId, session.offline]);
  if (waiting.length === 0 && refused.length === 0) return null;
  return (
    <span role="status" class="waiting-status">
      <a class={`badge waiting-badge${refused.length > 0 ? " refused" : ""}`} href="/app/waiting">
        {waiting.length > 0 && `${waiting.length} ${waiting.length === 1 ? "scan waits" : "scans wait"}`}
        {waiting.length > 0 && refused.length > 0 && ", "}
        {refused.length > 0 && `${refused.length} refused`}
      </a>
    </span>
  );
}
