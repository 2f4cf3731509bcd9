ALTER TABLE `outbox_events` ADD `merchant_id` text;--> statement-breakpoint
ALTER TABLE `webhook_subscriptions` ADD `merchant_id` text;