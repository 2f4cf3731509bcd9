CREATE TABLE `event_sweeps` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`swept_through_seq` integer NOT NULL,
	`swept_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `stock_hold_allocations` (
	`tenant_id` text NOT NULL,
	`hold_id` text NOT NULL,
	`product_id` text NOT NULL,
	`location_id` text NOT NULL,
	`warehouse_id` text NOT NULL,
	`lot_id` text DEFAULT '' NOT NULL,
	`quantity` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `hold_id`, `location_id`, `lot_id`),
	CONSTRAINT "stock_hold_allocations_quantity_check" CHECK("stock_hold_allocations"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE `stock_holds` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`location_id` text,
	`warehouse_id` text,
	`reference` text,
	`status` text DEFAULT 'active' NOT NULL,
	`expires_at` text NOT NULL,
	`order_id` text,
	`released_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "stock_holds_status_check" CHECK("stock_holds"."status" in ('active', 'released', 'expired', 'consumed')),
	CONSTRAINT "stock_holds_quantity_check" CHECK("stock_holds"."quantity" > 0)
);
--> statement-breakpoint
CREATE INDEX `stock_holds_tenant_created_idx` ON `stock_holds` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `stock_holds_tenant_product_idx` ON `stock_holds` (`tenant_id`,`product_id`,`status`);--> statement-breakpoint
CREATE INDEX `stock_holds_tenant_reference_idx` ON `stock_holds` (`tenant_id`,`reference`);--> statement-breakpoint
CREATE INDEX `stock_holds_active_expiry_idx` ON `stock_holds` (`expires_at`) WHERE "stock_holds"."status" = 'active';--> statement-breakpoint
DROP INDEX `webhook_deliveries_subscription_event_unique`;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `replay_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_subscription_event_replay_unique` ON `webhook_deliveries` (`subscription_id`,`event_id`,`replay_id`);--> statement-breakpoint
-- SQLite adds a NOT NULL column only with a default; every insert sets seq (src/events/outbox.ts), the
-- default serves only the backfill below: existing events numbered per tenant in their creation order.
ALTER TABLE `outbox_events` ADD `seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `outbox_events` SET `seq` = (
	SELECT r.n FROM (
		SELECT id, row_number() OVER (PARTITION BY tenant_id ORDER BY created_at, id) AS n FROM outbox_events
	) r WHERE r.id = outbox_events.id
);--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_events_tenant_seq_unique` ON `outbox_events` (`tenant_id`,`seq`);--> statement-breakpoint
CREATE INDEX `stock_movements_tenant_level_created_idx` ON `stock_movements` (`tenant_id`,`product_id`,`location_id`,`lot_id`,`created_at`);