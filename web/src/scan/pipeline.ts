import { useRef, useState } from "preact/hooks";
import { signal } from "./feedback";
import { readScan, type Scan } from "./read-scan";

/** What a screen does with one scan: a message to show when taken (a string, optional); throwing refuses it. */
export type ScanHandler = (scan: Scan) => unknown;

export interface ScanPipeline {
  /** Hands over what the field held at Enter; never refused for being early. */
  submit(typed: string): void;
  /** A scan is being handled. */
  busy: boolean;
  /** Scans typed while one was handled, waiting their turn. */
  waiting: number;
  /** Why the last scan was refused (null once a scan is taken). */
  error: unknown;
  /** How many scans typed behind the refused one were not used. */
  dropped: number;
  /** What the last scan taken did, when the screen says. */
  notice: string;
  /** Forgets the refusal and the notice (Scan again, a new line). */
  clear(): void;
}

/** Lets the screen render what the last scan changed, so the next scan is handled against it. */
const rendered = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The one scan pipeline of the floor screens. Scans are handled one at a time in the order they were typed:
 * a scan that arrives while another is resolving waits in line (a keyboard-wedge scanner does not wait for the
 * screen), and each is handled by the screen's newest handler, after the previous scan's changes are rendered.
 * Each outcome is heard and felt (feedback.ts). When a scan is refused, the scans typed behind it were meant for
 * a step that did not come, so they are not used, and the refusal says how many to scan again.
 */
export function useScanPipeline(handler: ScanHandler): ScanPipeline {
  const latest = useRef(handler);
  latest.current = handler;
  const queue = useRef<string[]>([]);
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const [waiting, setWaiting] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [dropped, setDropped] = useState(0);
  const [notice, setNotice] = useState("");

  const drain = async () => {
    running.current = true;
    setBusy(true);
    try {
      for (let typed = queue.current.shift(); typed !== undefined; typed = queue.current.shift()) {
        setWaiting(queue.current.length);
        try {
          const message = await latest.current(readScan(typed));
          signal("accepted");
          setError(null);
          setDropped(0);
          setNotice(typeof message === "string" ? message : "");
        } catch (refusal) {
          signal("refused");
          setDropped(queue.current.splice(0).length);
          setError(refusal);
          setNotice("");
        }
        await rendered();
      }
    } finally {
      running.current = false;
      setBusy(false);
      setWaiting(0);
    }
  };

  return {
    submit(typed) {
      queue.current.push(typed);
      setWaiting(queue.current.length);
      if (!running.current) void drain();
    },
    busy,
    waiting,
    error,
    dropped,
    notice,
    clear() {
      setError(null);
      setDropped(0);
      setNotice("");
    },
  };
}
