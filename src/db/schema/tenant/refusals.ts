import { sql } from "drizzle-orm";
import { check, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Never holds a row. A write that checks its preconditions inside its own batch, instead of reading them in a
// round trip before it, inserts a row here when one does not hold (`refuseUnless`, src/db/preconditions.ts): the
// CHECK refuses every row, so the whole batch rolls back, and the writer answers `precondition_refused` by reading
// what failed.
export const preconditionRefusals = sqliteTable(
  "precondition_refusals",
  {
    tenantId: text("tenant_id").notNull(),
    refusal: text("refusal").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.refusal] }), check("precondition_refused", sql`0`)],
);
