import { jsonBytes } from "../db/batch";
import type { CountRecord } from "../record-schemas/count";
import { changesStock } from "./records";

/**
 * The bytes the lines of an `inventory.count_approved` event may take: the event stays far below D1's
 * 1 MB row (and a feed page of such events stays readable) whatever the count's size.
 */
export const EVENT_LINES_BYTES = 256 * 1024;

/** The first of `lines` whose JSON fits in `bytes` together. */
function leading<T>(lines: readonly T[], bytes: number): T[] {
  let used = 2;
  const kept: T[] = [];
  for (const line of lines) {
    used += jsonBytes(line) + 1;
    if (used > bytes) break;
    kept.push(line);
  }
  return kept;
}

/**
 * The payload of `inventory.count_approved`: the approved count as `GET /inventory/counts/{id}` shows it,
 * with every line when they fit in EVENT_LINES_BYTES; otherwise only the lines whose approval changed stock,
 * as many as fit (in the count's order). `linesIncluded` says which, `hasMoreLines` whether some of those
 * were left out; the count's `id` fetches them all (docs/decisions/cycle-counts.md).
 */
export function countApprovedPayload(count: CountRecord) {
  const all = leading(count.lines, EVENT_LINES_BYTES);
  if (all.length === count.lines.length) {
    return { ...count, linesIncluded: "all" as const, hasMoreLines: false };
  }
  const changed = count.lines.filter(changesStock);
  const lines = leading(changed, EVENT_LINES_BYTES);
  return { ...count, lines, linesIncluded: "changed" as const, hasMoreLines: lines.length < changed.length };
}
