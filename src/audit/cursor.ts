import type { AuditPosition } from "../db/audit/read";
import { AppError } from "../http/errors";

// An audit cursor is the last entry's place in newest-first order (createdAt, id), wrapped so clients treat it as
// opaque.
const PREFIX = "auc1_";

export const encodeAuditCursor = (at: AuditPosition) =>
  `${PREFIX}${btoa(JSON.stringify([at.createdAt, at.id]))}`;

const NOT_ISSUED = "after: not a cursor issued by this API (use nextCursor as given)";

/** The position a cursor stands for; 400 for anything this API did not issue. */
export function decodeAuditCursor(cursor: string): AuditPosition {
  try {
    if (cursor.startsWith(PREFIX)) {
      const [createdAt, id] = JSON.parse(atob(cursor.slice(PREFIX.length))) as unknown[];
      if (typeof createdAt === "string" && typeof id === "string" && !Number.isNaN(Date.parse(createdAt)))
        return { createdAt, id };
    }
  } catch {
    // Not base64 or not JSON: refused below.
  }
  throw new AppError("VALIDATION_FAILED", NOT_ISSUED, { errors: [NOT_ISSUED] });
}
