import { useLoad } from "./use-load";

/** The most ids one `ids` filter of a list takes (the API's page size). */
const IDS_PER_REQUEST = 100;

/**
 * The records of these ids (products of a ledger page, orders of charges), read through a list's `ids` filter:
 * one request per 100 distinct ids, never one per record.
 */
export async function readById<T extends { id: string }>(
  ids: string[],
  readMany: (ids: string[]) => Promise<T[]>,
): Promise<Map<string, T>> {
  const all = [...new Set(ids)];
  const runs = Array.from({ length: Math.ceil(all.length / IDS_PER_REQUEST) }, (_, i) =>
    all.slice(i * IDS_PER_REQUEST, (i + 1) * IDS_PER_REQUEST),
  );
  const records = (await Promise.all(runs.map(readMany))).flat();
  return new Map(records.map((r) => [r.id, r]));
}

/** The records a page names by id, read as `readById` does, again when the ids change. */
export function useById<T extends { id: string }>(ids: string[], readMany: (ids: string[]) => Promise<T[]>) {
  const key = [...new Set(ids)].sort().join(",");
  return useLoad(() => readById(key ? key.split(",") : [], readMany), [key]);
}
