import type { LineResult } from "../stock";
import type { BatchResult } from "./batch-schemas";

/** A batch's answer: each line's result as the API shows it (its level is the caller's own), and the counts. */
export function batchResult(atomic: boolean, results: readonly LineResult[]): BatchResult {
  const shown = results.map((result) => {
    if ("errors" in result) return result;
    const { level: _level, ...rest } = result;
    return rest;
  });
  const failed = shown.filter((r) => "errors" in r).length;
  return { atomic, applied: shown.length - failed, failed, results: shown };
}
