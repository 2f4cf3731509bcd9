import { FloorStatus, RefusedWrites } from "../offline/floor-status";
import { useWrites } from "../offline/queue";
import { useSession } from "../session/session";
import { formatDateTime } from "../ui/format";
import { useDocumentTitle } from "../ui/title";

/** Every scan stored on this device for the signed-in person: those waiting to be sent, in order, and the refused. */
export function Waiting() {
  useDocumentTitle("Scans on this device");
  const session = useSession();
  const { waiting, refused, ready } = useWrites();
  return (
    <>
      <h1 tabIndex={-1}>Scans on this device</h1>
      <FloorStatus offline={session.offline} waiting={waiting.length} />
      <RefusedWrites refused={refused} />
      {ready && waiting.length === 0 && refused.length === 0 && (
        <p>Every scan made on this device reached the server.</p>
      )}
      {waiting.length > 0 && (
        <>
          <h2>Waiting to be sent, in this order</h2>
          <ol class="waiting-writes">
            {waiting.map((write) => (
              <li key={write.seq}>
                {write.label} <span class="muted">scanned {formatDateTime(write.createdAt)}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </>
  );
}
