import { type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "./client";
import { insertSelect } from "./insert-select";
import { preconditionRefusals } from "./schema/tenant";

/**
 * A batch statement that fails the batch unless `condition` holds when it runs: it inserts into a table whose
 * CHECK refuses every row, so the batch breaks `precondition_refused` and changes nothing. It lets a write check
 * inside its one batch what it would otherwise read first, a round trip earlier; put it first in the batch.
 */
export const refuseUnless = (tdb: TenantDb, condition: SQL) =>
  insertSelect(
    preconditionRefusals,
    { tenantId: tdb.tenantId, refusal: "precondition" },
    sql`where not (${condition})`,
  );
