import type { TenantDb } from "../db/client";
import { moveCount } from "./count-status";

/** `POST /inventory/counts/{id}/cancel`: an open or submitted count cancelled. */
export const cancelCount = (tdb: TenantDb, id: string) =>
  moveCount(tdb, id, ["open", "submitted"], "cancelled");
