import { AppError } from "../http/errors";

// A feed cursor is the tenant's event sequence number (commit order) wrapped so clients treat it as
// opaque: the encoding may change, the promise ("after this, nothing missed, nothing repeated") does not.
const PREFIX = "evc1_";

export function encodeCursor(seq: number): string {
  return `${PREFIX}${btoa(String(seq)).replace(/=+$/, "")}`;
}

/** The sequence number a cursor stands for; 400 for anything this API did not issue. */
export function decodeCursor(cursor: string): number {
  if (cursor.startsWith(PREFIX)) {
    try {
      const text = atob(cursor.slice(PREFIX.length));
      if (/^(0|[1-9][0-9]{0,15})$/.test(text)) return Number(text);
    } catch {
      // Not base64: refused below.
    }
  }
  throw new AppError("VALIDATION_FAILED", "after: not a cursor issued by this API (use nextCursor as given)");
}
