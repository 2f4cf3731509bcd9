import type { webhookSubscriptions } from "../db/schema/tenant";

/** A subscription as stored: what the engine delivers to, and what the /webhooks routes turn into its record. */
export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
