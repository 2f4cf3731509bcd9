CREATE TABLE `inventory_count_lines` (
	`tenant_id` text NOT NULL,
	`count_id` text NOT NULL,
	`product_id` text NOT NULL,
	`location_id` text NOT NULL,
	`lot_id` text DEFAULT '' NOT NULL,
	`warehouse_id` text NOT NULL,
	`expected` integer NOT NULL,
	`counted` integer,
	`on_hand_at_count` integer,
	`counted_at` text,
	`counted_by` text,
	PRIMARY KEY(`tenant_id`, `count_id`, `product_id`, `location_id`, `lot_id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "inventory_count_lines_counted_check" CHECK("inventory_count_lines"."counted" is null or "inventory_count_lines"."counted" >= 0)
);
--> statement-breakpoint
CREATE TABLE `inventory_counts` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`warehouse_id` text,
	`location_ids` text,
	`product_ids` text,
	`created_by` text,
	`approved_by` text,
	`created_at` text NOT NULL,
	`submitted_at` text,
	`approved_at` text,
	`cancelled_at` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "inventory_counts_status_check" CHECK("inventory_counts"."status" in ('open', 'submitted', 'approved', 'cancelled'))
);
--> statement-breakpoint
CREATE INDEX `inventory_counts_tenant_created_idx` ON `inventory_counts` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `inventory_counts_tenant_status_idx` ON `inventory_counts` (`tenant_id`,`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `lots` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`number` text NOT NULL,
	`expires_at` text,
	`manufactured_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lots_tenant_product_number_unique` ON `lots` (`tenant_id`,`product_id`,`number`);--> statement-breakpoint
CREATE INDEX `lots_tenant_expires_idx` ON `lots` (`tenant_id`,`expires_at`);--> statement-breakpoint
CREATE INDEX `lots_tenant_created_idx` ON `lots` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `serial_numbers` (
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`serial` text NOT NULL,
	`location_id` text,
	`warehouse_id` text,
	`on_hand` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `product_id`, `serial`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "serial_numbers_on_hand_check" CHECK("serial_numbers"."on_hand" in (0, 1))
);
--> statement-breakpoint
CREATE INDEX `serial_numbers_tenant_location_idx` ON `serial_numbers` (`tenant_id`,`location_id`,`product_id`);--> statement-breakpoint
-- Existing levels and reservations keep every row, with the lot-less key '' (no table references these two).
CREATE TABLE `__new_stock_levels` (
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`location_id` text NOT NULL,
	`warehouse_id` text NOT NULL,
	`lot_id` text DEFAULT '' NOT NULL,
	`on_hand` integer DEFAULT 0 NOT NULL,
	`reserved` integer DEFAULT 0 NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `product_id`, `location_id`, `lot_id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`warehouse_id`) REFERENCES `warehouses`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "stock_levels_on_hand_check" CHECK("__new_stock_levels"."on_hand" >= 0),
	CONSTRAINT "stock_levels_on_hand_max_check" CHECK("__new_stock_levels"."on_hand" <= 1000000000),
	CONSTRAINT "stock_levels_reserved_check" CHECK("__new_stock_levels"."reserved" >= 0 and "__new_stock_levels"."reserved" <= "__new_stock_levels"."on_hand")
);
--> statement-breakpoint
INSERT INTO `__new_stock_levels`("tenant_id", "product_id", "location_id", "warehouse_id", "lot_id", "on_hand", "reserved", "updated_at") SELECT "tenant_id", "product_id", "location_id", "warehouse_id", '', "on_hand", "reserved", "updated_at" FROM `stock_levels`;--> statement-breakpoint
DROP TABLE `stock_levels`;--> statement-breakpoint
ALTER TABLE `__new_stock_levels` RENAME TO `stock_levels`;--> statement-breakpoint
CREATE INDEX `stock_levels_tenant_location_idx` ON `stock_levels` (`tenant_id`,`location_id`);--> statement-breakpoint
CREATE INDEX `stock_levels_tenant_warehouse_idx` ON `stock_levels` (`tenant_id`,`warehouse_id`);--> statement-breakpoint
CREATE TABLE `__new_order_reservations` (
	`tenant_id` text NOT NULL,
	`order_id` text NOT NULL,
	`line_id` text NOT NULL,
	`product_id` text NOT NULL,
	`location_id` text NOT NULL,
	`lot_id` text DEFAULT '' NOT NULL,
	`quantity` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `order_id`, `line_id`, `location_id`, `lot_id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "order_reservations_quantity_check" CHECK("__new_order_reservations"."quantity" > 0)
);
--> statement-breakpoint
INSERT INTO `__new_order_reservations`("tenant_id", "order_id", "line_id", "product_id", "location_id", "lot_id", "quantity") SELECT "tenant_id", "order_id", "line_id", "product_id", "location_id", '', "quantity" FROM `order_reservations`;--> statement-breakpoint
DROP TABLE `order_reservations`;--> statement-breakpoint
ALTER TABLE `__new_order_reservations` RENAME TO `order_reservations`;--> statement-breakpoint
CREATE INDEX `order_reservations_tenant_product_idx` ON `order_reservations` (`tenant_id`,`product_id`);--> statement-breakpoint
-- Hand-written: a column, not a rebuilt table (products is referenced by other tables and has the search triggers).
ALTER TABLE `products` ADD `tracking` text DEFAULT 'none' NOT NULL CONSTRAINT "products_tracking_check" CHECK("tracking" in ('none', 'lot', 'serial'));--> statement-breakpoint
ALTER TABLE `stock_movements` ADD `lot_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `stock_movements` ADD `serial_numbers` text;--> statement-breakpoint
CREATE INDEX `stock_movements_tenant_lot_idx` ON `stock_movements` (`tenant_id`,`lot_id`,`created_at`) WHERE "stock_movements"."lot_id" <> '';--> statement-breakpoint
ALTER TABLE `order_lines` ADD `lot_number` text;--> statement-breakpoint
ALTER TABLE `order_lines` ADD `lots` text;--> statement-breakpoint
ALTER TABLE `order_lines` ADD `serial_numbers` text;