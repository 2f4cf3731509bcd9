CREATE TABLE `merchants` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `merchants_tenant_code_unique` ON `merchants` (`tenant_id`,`code`);--> statement-breakpoint
CREATE INDEX `merchants_tenant_created_idx` ON `merchants` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `products` ADD `merchant_id` text REFERENCES merchants(id);--> statement-breakpoint
CREATE INDEX `products_tenant_merchant_idx` ON `products` (`tenant_id`,`merchant_id`,`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `orders` ADD `merchant_id` text;--> statement-breakpoint
CREATE INDEX `orders_tenant_merchant_idx` ON `orders` (`tenant_id`,`merchant_id`,`created_at`,`id`);