PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_stock_levels` (
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`location_id` text NOT NULL,
	`warehouse_id` text NOT NULL,
	`on_hand` integer DEFAULT 0 NOT NULL,
	`reserved` integer DEFAULT 0 NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `product_id`, `location_id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`warehouse_id`) REFERENCES `warehouses`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "stock_levels_on_hand_check" CHECK("__new_stock_levels"."on_hand" >= 0),
	CONSTRAINT "stock_levels_on_hand_max_check" CHECK("__new_stock_levels"."on_hand" <= 1000000000),
	CONSTRAINT "stock_levels_reserved_check" CHECK("__new_stock_levels"."reserved" >= 0 and "__new_stock_levels"."reserved" <= "__new_stock_levels"."on_hand")
);
--> statement-breakpoint
INSERT INTO `__new_stock_levels`("tenant_id", "product_id", "location_id", "warehouse_id", "on_hand", "reserved", "updated_at") SELECT "tenant_id", "product_id", "location_id", "warehouse_id", "on_hand", "reserved", "updated_at" FROM `stock_levels`;--> statement-breakpoint
DROP TABLE `stock_levels`;--> statement-breakpoint
ALTER TABLE `__new_stock_levels` RENAME TO `stock_levels`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `stock_levels_tenant_location_idx` ON `stock_levels` (`tenant_id`,`location_id`);--> statement-breakpoint
CREATE INDEX `stock_levels_tenant_warehouse_idx` ON `stock_levels` (`tenant_id`,`warehouse_id`);