import { useCallback, useLayoutEffect, useState } from "preact/hooks";

export type Load<T> =
  | { state: "loading"; data?: T; reload: () => void }
  | { state: "ready"; data: T; reload: () => void }
  | { state: "failed"; error: unknown; data?: T; reload: () => void };

/**
 * Runs `load` when a dependency changes (and on `reload()`), keeping the last data while a new load runs.
 * An answer that arrives after a newer request started is dropped. The read starts as the page is rendered (a
 * layout effect), not after the browser has painted it: a page load's reads start a frame or more sooner.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Load<T> {
  const [result, setResult] = useState<{ state: "loading" | "ready" | "failed"; data?: T; error?: unknown }>({
    state: "loading",
  });
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  useLayoutEffect(() => {
    let current = true;
    setResult((previous) => ({ state: "loading", data: previous.data }));
    load().then(
      (data) => current && setResult({ state: "ready", data }),
      (error: unknown) =>
        current && setResult((previous) => ({ state: "failed", error, data: previous.data })),
    );
    return () => {
      current = false;
    };
  }, [...deps, generation]);
  return { ...result, reload } as Load<T>;
}
