import type { TenantDb } from "../db/client";
import { moveCount } from "./count-status";

/** `POST /inventory/counts/{id}/submit`: an open count's counted lines and variances frozen. */
export const submitCount = (tdb: TenantDb, id: string) => moveCount(tdb, id, ["open"], "submitted");
