import { AppError } from "../http/errors";

// A feed cursor is the tenant's event sequence number (commit order) wrapped so clients treat it as
// opaque: the encoding may change, the promise ("after this, nothing missed, nothing repeated") does not.
const PREFIX = "evc1_";

export function encodeCursor(seq: number): string {
  return `${PREFIX}${btoa(String(seq)).replace(/=+$/, "")}`;
}

const NOT_ISSUED = "after: not a cursor issued by this API (use nextCursor as given)";

/** The 400 of a cursor this API did not issue (docs/decisions/events.md, "Cursors"). */
export const notACursor = () => new AppError("VALIDATION_FAILED", NOT_ISSUED, { errors: [NOT_ISSUED] });

/**
 * The sequence number a cursor stands for; 400 for anything this API did not issue. A number past 2^53 - 1 is
 * refused here: read as a double it would round (`9999999999999999` is 10^16), and the cursor answered after it
 * would be one this check refuses. The feed refuses one past the tenant's last event (`readFeed`).
 */
export function decodeCursor(cursor: string): number {
  if (cursor.startsWith(PREFIX)) {
    try {
      const text = atob(cursor.slice(PREFIX.length));
      const seq = Number(text);
      if (/^(0|[1-9][0-9]*)$/.test(text) && Number.isSafeInteger(seq)) return seq;
    } catch {
      // Not base64: refused below.
    }
  }
  throw notACursor();
}
