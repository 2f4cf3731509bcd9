import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenantRowKey, timestamps } from "./columns";

// Transactional outbox: written in the same batch as the change that causes the event.
export const outboxEvents = sqliteTable(
  "outbox_events",
  {
    ...tenantRowKey(),
    type: text("type").notNull(),
    payload: text("payload", { mode: "json" }).$type<unknown>().notNull(),
    createdAt: text("created_at").notNull(),
    // When the event was last handed to the queue (null: not yet); the cron sweep picks up the rest.
    dispatchedAt: text("dispatched_at"),
    // When the queue consumer fanned it out into deliveries (null: not yet). A handed-off event still
    // unprocessed minutes later lost its queue message and is handed off again (src/webhooks/dispatch-sweep.ts).
    processedAt: text("processed_at"),
    // How often the sweep handed it off again without a fan-out following; at the limit the sweep gives up,
    // stamps fan_out_failed_at (and processed_at) and logs it (src/webhooks/dispatch-sweep.ts).
    redispatches: integer("redispatches").notNull().default(0),
    fanOutFailedAt: text("fan_out_failed_at"),
    // The tenant's gapless commit order, assigned inside the insert (docs/decisions/events.md): the feed's cursor.
    seq: integer("seq").notNull(),
    // The merchant the event is about (its product's or order's), stamped by the outbox writer: a
    // merchant-scoped credential's feed and webhooks see only its own (docs/decisions/merchants.md).
    merchantId: text("merchant_id"),
  },
  (t) => [
    uniqueIndex("outbox_events_tenant_seq_unique").on(t.tenantId, t.seq),
    index("outbox_events_tenant_created_idx").on(t.tenantId, t.createdAt),
    // The dispatch sweep reads only events not yet fanned out: the few in flight.
    index("outbox_events_unprocessed_idx").on(t.createdAt).where(sql`${t.processedAt} is null`),
  ],
);

export const webhookSubscriptions = sqliteTable(
  "webhook_subscriptions",
  {
    ...tenantRowKey(),
    url: text("url").notNull(),
    description: text("description"),
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    // AES-GCM ciphertext of the whsec_ secret (key from the WEBHOOK_SECRET_KEY binding).
    secretCiphertext: text("secret_ciphertext").notNull(),
    // After a rotation the previous secret keeps signing until previous_secret_expires_at.
    previousSecretCiphertext: text("previous_secret_ciphertext"),
    previousSecretExpiresAt: text("previous_secret_expires_at"),
    disabledReason: text("disabled_reason"),
    failingSince: text("failing_since"),
    // Who created it (a member or an API key of the tenant): its deliveries are capped by that credential's
    // current rights. Null for subscriptions made before creators were recorded.
    createdByType: text("created_by_type", { enum: ["user", "api_key"] }),
    createdById: text("created_by_id"),
    // Made by a merchant-scoped credential: receives that merchant's events only.
    merchantId: text("merchant_id"),
    ...timestamps(),
  },
  (t) => [index("webhook_subscriptions_tenant_created_idx").on(t.tenantId, t.createdAt)],
);

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    ...tenantRowKey(),
    subscriptionId: text("subscription_id").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    // '' for the event's first fan-out; a replay's id for a delivery made again by POST /webhooks/{id}/replay.
    replayId: text("replay_id").notNull().default(""),
    status: text("status", { enum: ["pending", "succeeded", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastDurationMs: integer("last_duration_ms"),
    nextAttemptAt: text("next_attempt_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_subscription_event_replay_unique").on(
      t.subscriptionId,
      t.eventId,
      t.replayId,
    ),
    index("webhook_deliveries_tenant_subscription_idx").on(t.tenantId, t.subscriptionId, t.createdAt),
  ],
);

export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    ...tenantRowKey(),
    deliveryId: text("delivery_id").notNull(),
    subscriptionId: text("subscription_id").notNull(),
    attempt: integer("attempt").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("webhook_attempts_tenant_subscription_idx").on(t.tenantId, t.subscriptionId, t.createdAt)],
);

// How far the retention sweep has deleted each tenant's events: a feed cursor before this is 410.
export const eventSweeps = sqliteTable("event_sweeps", {
  tenantId: text("tenant_id").primaryKey(),
  sweptThroughSeq: integer("swept_through_seq").notNull(),
  sweptAt: text("swept_at").notNull(),
});

// Idempotency-Key records, scoped to the tenant, kept 24 h.
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    tenantId: text("tenant_id").notNull(),
    key: text("key").notNull(),
    // Who claimed the key (`user:<id>` or `api_key:<id>`): only they can replay it.
    credential: text("credential").notNull().default(""),
    requestHash: text("request_hash").notNull(),
    status: text("status", { enum: ["in_flight", "completed"] }).notNull(),
    responseStatus: integer("response_status"),
    // The response body sealed with AES-GCM (src/crypto/sealed-box.ts): it may hold a new key or secret.
    sealedResponseBody: text("sealed_response_body"),
    responseHeaders: text("response_headers", { mode: "json" }).$type<Record<string, string> | null>(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.key] }),
    index("idempotency_keys_expires_idx").on(t.expiresAt),
  ],
);
