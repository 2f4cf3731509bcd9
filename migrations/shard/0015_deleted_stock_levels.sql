CREATE TABLE `deleted_stock_levels` (
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`location_id` text NOT NULL,
	`lot_id` text NOT NULL,
	`merchant_id` text NOT NULL,
	`location_type` text NOT NULL,
	`deleted_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `product_id`, `location_id`, `lot_id`)
);
--> statement-breakpoint
CREATE INDEX `deleted_stock_levels_merchant_deleted_idx` ON `deleted_stock_levels` (`tenant_id`,`merchant_id`,`deleted_at`);