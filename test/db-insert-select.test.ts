import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { runBatch } from "../src/db/batch";
import { dbFor } from "../src/db/client";
import { insertSelect } from "../src/db/insert-select";
import { outboxEvents } from "../src/db/schema/tenant";
import { createTenant } from "./support/builders";
import { tenantDatabase } from "./support/database";

// The raw insert-selects (guarded and bulk writes of ledger and outbox rows) name each value's column from
// the schema: a value lands in the column its field names, whatever order the fields are written in.
describe("insertSelect", () => {
  it("writes each value into the column its field names, expressions and bound values alike", async () => {
    const tenant = await createTenant();
    const tdb = await dbFor(env, tenant.id);
    const id = crypto.randomUUID();
    const now = new Date().toISOString();
    await runBatch(tdb, {
      event: insertSelect(
        outboxEvents,
        // Not the schema's order: the column list follows the fields, not their position.
        {
          seq: sql`1 + 1`,
          processedAt: now,
          payload: sql`json_object('from', 'insertSelect')`,
          dispatchedAt: now,
          createdAt: now,
          type: "product.created",
          tenantId: tenant.id,
          id,
        },
        sql`where 1`,
      ),
    });
    const row = await (await tenantDatabase(tenant.id))
      .prepare("select * from outbox_events where id = ?1")
      .bind(id)
      .first();
    expect(row).toMatchObject({
      id,
      tenant_id: tenant.id,
      type: "product.created",
      payload: '{"from":"insertSelect"}',
      created_at: now,
      dispatched_at: now,
      processed_at: now,
      seq: 2,
    });
  });

  it("refuses at compile time a row missing a required column or naming one the table lacks", () => {
    const now = new Date().toISOString();
    const missing = () =>
      insertSelect(
        outboxEvents,
        // @ts-expect-error seq is required
        { id: "a", tenantId: "t", type: "x", payload: "{}", createdAt: now },
        sql``,
      );
    const unknown = () =>
      insertSelect(
        outboxEvents,
        // @ts-expect-error outbox_events has no such column
        { id: "a", tenantId: "t", type: "x", payload: "{}", createdAt: now, seq: 1, sku: "A" },
        sql``,
      );
    expect(typeof missing).toBe("function");
    expect(() => unknown()).toThrow("outbox_events has no field sku");
  });
});
