ALTER TABLE `outbox_events` ADD `redispatches` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox_events` ADD `fan_out_failed_at` text;--> statement-breakpoint
ALTER TABLE `webhook_subscriptions` ADD `created_by_type` text;--> statement-breakpoint
ALTER TABLE `webhook_subscriptions` ADD `created_by_id` text;