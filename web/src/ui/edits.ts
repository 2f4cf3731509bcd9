import { dequal } from "dequal";

/**
 * What an edit sends (issue #45: an edit never loses what its form does not show). `read` is the record as the
 * API takes it back (every field of its request, as read), `edited` the fields the form shows, as the person saved
 * them. The changes are the edited fields whose value differs from what was read; none means an unchanged save,
 * which sends nothing.
 */
export function changesOf<T extends object>(read: T, edited: Partial<T>): Partial<T> | null {
  const changed = Object.entries(edited).filter(([field, value]) => !dequal(value, read[field as keyof T]));
  return changed.length === 0 ? null : (Object.fromEntries(changed) as Partial<T>);
}

/**
 * A record as a replacing PUT takes it back: every field of the request, each present (undefined where the record
 * has none). Declaring a page's read function with this type makes a field the API adds fail the build until the
 * page carries it, instead of every save resetting it.
 */
export type AsRead<Request> = { [Field in keyof Required<Request>]: Request[Field] | undefined };

/** The body of a replacing PUT: every field as read, with the person's changes over them; null when none changed. */
export function replacementOf<T extends object>(read: AsRead<T>, edited: Partial<T>): T | null {
  const changes = changesOf(read as T, edited);
  return changes && ({ ...read, ...changes } as T);
}
