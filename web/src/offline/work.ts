import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../api/client";
import type { SavedWork } from "./db";
import { mirroredWork, savedWork, saveWork, useFloorChanges } from "./queue";

export type WorkLoad<D, S> =
  | { state: "loading"; data?: SavedWork<D, S>; offline: boolean; reload: () => void }
  | { state: "ready"; data: SavedWork<D, S>; offline: boolean; reload: () => void }
  | { state: "failed"; error: unknown; data?: SavedWork<D, S>; offline: boolean; reload: () => void };

/** The server cannot be reached (or will not know us until it can): work from what the device saved. */
const unreachable = (error: unknown) =>
  error instanceof ApiError && (error.status === 0 || error.status === 401);

/**
 * A floor work (a pick list, a receipt, a count) with what its screen needs, read from the server and saved on
 * the device when the screen opens; without the network, the copy the device saved (`offline`). The screen
 * shows the device's copy as it changes (a write's answer saved into it, a tote assigned).
 */
export function useWork<D, S>(
  subject: string,
  title: (data: D) => string,
  load: () => Promise<D>,
  initialDevice: S,
): WorkLoad<D, S> {
  useFloorChanges();
  const [generation, setGeneration] = useState(0);
  const [status, setStatus] = useState<{
    state: "loading" | "ready" | "failed";
    error?: unknown;
    offline: boolean;
  }>({
    state: "loading",
    offline: false,
  });
  useEffect(() => {
    let current = true;
    setStatus((s) => ({ ...s, state: "loading" }));
    const read = load().then(
      async (data) => {
        await saveWork(subject, title(data), data, initialDevice);
        return false;
      },
      (error: unknown) => {
        if (unreachable(error)) return true;
        throw error;
      },
    );
    read
      .then(async (offline) => {
        const saved = await savedWork<D, S>(subject);
        if (!current) return;
        setStatus(
          saved
            ? { state: "ready", offline }
            : {
                state: "failed",
                offline,
                error: new Error(
                  "The server cannot be reached, and this was not opened on this device before: open it once with the network.",
                ),
              },
        );
      })
      .catch((error: unknown) => current && setStatus({ state: "failed", error, offline: false }));
    return () => {
      current = false;
    };
  }, [subject, generation]);
  const data = mirroredWork<D, S>(subject);
  const reload = () => setGeneration((n) => n + 1);
  if (status.state === "ready" && data) return { state: "ready", data, offline: status.offline, reload };
  if (status.state === "failed")
    return { state: "failed", error: status.error, offline: status.offline, reload };
  return { state: "loading", offline: status.offline, reload };
}
