ALTER TABLE `api_keys` ADD `grantor_keys` text;--> statement-breakpoint
ALTER TABLE `invitations` ADD `merchant_id` text;