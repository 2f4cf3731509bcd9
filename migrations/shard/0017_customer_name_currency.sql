ALTER TABLE `tenant_settings` ADD `currency` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `customer_name` text;