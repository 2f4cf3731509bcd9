import { useLocation } from "preact-iso";

/**
 * A list's filters kept in the URL (a filtered page can be bookmarked and shared): their current values, and
 * `show` to change some of them (empty values and page 1 are left out of the URL).
 */
export function useUrlFilters<K extends string>(keys: readonly K[]) {
  const { query, path, route } = useLocation();
  const values = Object.fromEntries(keys.map((key) => [key, query[key] ?? ""])) as Record<K, string>;
  const page = Number(query.page ?? "1") || 1;
  const show = (next: Partial<Record<K | "page", string | number>>) => {
    const params = new URLSearchParams();
    const merged: Record<string, string | number | undefined> = { ...values, page, ...next };
    for (const [key, value] of Object.entries(merged)) {
      if (value !== "" && value !== undefined && !(key === "page" && Number(value) === 1))
        params.set(key, String(value));
    }
    const qs = params.toString();
    route(qs ? `${path}?${qs}` : path);
  };
  return { values, page, show };
}

/** The named fields of a submitted filter form, trimmed. */
export function filterFields(event: SubmitEvent): Record<string, string> {
  event.preventDefault();
  const form = new FormData(event.currentTarget as HTMLFormElement);
  return Object.fromEntries([...form.entries()].map(([key, value]) => [key, String(value).trim()]));
}
