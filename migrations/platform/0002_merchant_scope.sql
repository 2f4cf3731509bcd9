ALTER TABLE `api_keys` ADD `merchant_id` text;--> statement-breakpoint
ALTER TABLE `memberships` ADD `merchant_id` text;