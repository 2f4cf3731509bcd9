import { useLoad } from "./use-load";

/** The records a page names by id (products of an order, orders of returns): one read each, the same id read once. */
export function useById<T extends { id: string }>(ids: string[], read: (id: string) => Promise<T>) {
  const key = [...new Set(ids)].sort().join(",");
  return useLoad(async () => {
    const records = await Promise.all((key ? key.split(",") : []).map(read));
    return new Map(records.map((r) => [r.id, r]));
  }, [key]);
}
