/** How bad a log line is; Workers Logs filters on it. */
export type LogLevel = "info" | "warn" | "error";

/**
 * Writes one structured log line: a JSON object with `level` and `msg` first, then the fields. The only way this
 * Worker logs, so Workers Logs can index every field; callers pass ids and counts, never secrets, tokens or bodies.
 */
export function log(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, msg, ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}
