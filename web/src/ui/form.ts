import { useState } from "preact/hooks";

/** A form's submit: busy while the call runs (buttons disabled), then the API's error, if any. */
export function useSubmit<A extends unknown[]>(action: (...args: A) => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (...args: A) => {
    setBusy(true);
    setError(null);
    try {
      await action(...args);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}

/** The named text fields of a submitted form. */
export function fieldsOf(event: SubmitEvent): Record<string, string> {
  event.preventDefault();
  const form = new FormData(event.currentTarget as HTMLFormElement);
  return Object.fromEntries([...form.entries()].map(([key, value]) => [key, String(value)]));
}

/** The values of a submitted form's checked boxes named `name`. */
export function checkedOf(event: SubmitEvent, name: string): string[] {
  event.preventDefault();
  return new FormData(event.currentTarget as HTMLFormElement).getAll(name).map(String);
}
