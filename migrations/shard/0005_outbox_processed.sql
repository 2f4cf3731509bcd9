DROP INDEX `outbox_events_pending_idx`;--> statement-breakpoint
ALTER TABLE `outbox_events` ADD `processed_at` text;--> statement-breakpoint
-- Events handed off before processed_at existed are taken as fanned out (their deliveries were made then).
UPDATE `outbox_events` SET `processed_at` = `dispatched_at` WHERE `dispatched_at` IS NOT NULL;--> statement-breakpoint
CREATE INDEX `outbox_events_unprocessed_idx` ON `outbox_events` (`created_at`) WHERE "outbox_events"."processed_at" is null;