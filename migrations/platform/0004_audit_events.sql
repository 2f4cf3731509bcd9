CREATE TABLE `audit_events` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`seq` integer NOT NULL,
	`action` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`actor_chain` text NOT NULL,
	`merchant_id` text,
	`target_type` text NOT NULL,
	`target_id` text,
	`before` text,
	`after` text,
	`ip` text,
	`user_agent` text,
	`request_id` text,
	`created_at` text NOT NULL,
	`prev_hash` text,
	`hash` text,
	CONSTRAINT "audit_events_actor_type_check" CHECK("audit_events"."actor_type" in ('user', 'api_key', 'platform', 'anonymous'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_events_seq_unique` ON `audit_events` (`tenant_id`,`seq`);--> statement-breakpoint
CREATE INDEX `audit_events_tenant_created_idx` ON `audit_events` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_events_unsealed_idx` ON `audit_events` (`tenant_id`,`seq`) WHERE "audit_events"."hash" is null;