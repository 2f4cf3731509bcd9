import { useEffect, useState } from "preact/hooks";
import { formatDateTime } from "../ui/format";
import { focusScanField } from "../ui/scan-field";
import type { QueuedWrite, SavedWork } from "./db";
import { dismiss, savedWorks, useFloorChanges } from "./queue";

/** Whether the screen works from the device's copy, and how many of its scans wait to reach the server. */
export function FloorStatus({ offline, waiting }: { offline: boolean; waiting: number }) {
  if (!offline && waiting === 0) return null;
  return (
    <p class="floor-status" role="status">
      {offline && "Offline: working from what this device saved. "}
      {waiting > 0 &&
        `${waiting} ${waiting === 1 ? "scan waits" : "scans wait"} to reach the server${offline ? " (sent when the network is back)" : ""}.`}
    </p>
  );
}

/**
 * The scans the server refused after they were taken on the device (the pick list was cancelled, the stock
 * moved), each with what it was, why, and what to do; Done takes it off the device once that is done. Never
 * dropped on its own.
 */
export function RefusedWrites({ refused }: { refused: QueuedWrite[] }) {
  if (refused.length === 0) return null;
  return (
    <section class="alert alert-error refused-writes" aria-label="Scans the server refused">
      <h2>
        {refused.length} {refused.length === 1 ? "scan was" : "scans were"} refused by the server
      </h2>
      <ol>
        {refused.map((write) => (
          <li key={write.seq}>
            <p>
              <strong>{write.label}</strong>{" "}
              <span class="muted">scanned {formatDateTime(write.createdAt)}</span>
            </p>
            <p>
              Refused: <span>{write.refusal?.message}</span>
            </p>
            {write.refusal?.errors
              .filter((line) => line !== write.refusal?.message)
              .map((line) => (
                <p key={line}>{line}</p>
              ))}
            <p>What to do: {write.undo}</p>
            <button
              type="button"
              class="button"
              onClick={() => {
                void dismiss(write);
                focusScanField();
              }}
            >
              Done: {write.label}
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The works of one kind saved on this device, which open without the network (a reload in a dead zone lands
 * on the chooser, whose list needs the server).
 */
export function SavedOnDevice({ kind }: { kind: "pick" | "receive" | "count" }) {
  const version = useFloorChanges();
  const [works, setWorks] = useState<SavedWork[]>([]);
  useEffect(() => {
    void savedWorks(`${kind}:`).then(setWorks);
  }, [kind, version]);
  if (works.length === 0) return null;
  return (
    <section aria-label="Saved on this device">
      <h2>Saved on this device</h2>
      <ul class="floor-choices">
        {works.map((work) => (
          <li key={work.subject}>
            <a class="button floor-choice" href={`/app/${kind}/${work.subject.slice(kind.length + 1)}`}>
              <strong>{work.title}</strong>
              <span>saved {formatDateTime(work.savedAt)}: opens without the network</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
