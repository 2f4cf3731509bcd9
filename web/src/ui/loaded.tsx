import type { ComponentChildren } from "preact";
import { ErrorMessage } from "./error-message";
import { Spinner } from "./spinner";
import type { Load } from "./use-load";

/** A spinner while loading, the API's error when it failed, else the content for the data. */
export function Loaded<T>({ load, children }: { load: Load<T>; children: (data: T) => ComponentChildren }) {
  if (load.state === "failed") return <ErrorMessage error={load.error} />;
  if (load.state === "loading" && load.data === undefined) return <Spinner />;
  return (
    <div aria-busy={load.state === "loading"}>
      {load.state === "loading" && <Spinner label="Updating…" />}
      {load.data !== undefined && children(load.data)}
    </div>
  );
}
