CREATE TABLE `locations` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`warehouse_id` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`parent_id` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`warehouse_id`) REFERENCES `warehouses`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "locations_type_check" CHECK("locations"."type" in ('zone', 'aisle', 'rack', 'shelf', 'bin', 'dock', 'staging'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `locations_tenant_warehouse_code_unique` ON `locations` (`tenant_id`,`warehouse_id`,`code`);--> statement-breakpoint
CREATE INDEX `locations_tenant_created_idx` ON `locations` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `locations_tenant_type_idx` ON `locations` (`tenant_id`,`type`,`created_at`);--> statement-breakpoint
CREATE TABLE `product_counts` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`count` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `products` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`sku` text NOT NULL,
	`name` text NOT NULL,
	`barcode` text,
	`category` text,
	`unit` text,
	`price_e4` integer,
	`cost_e4` integer,
	`status` text DEFAULT 'Active' NOT NULL,
	`reorder_point` integer DEFAULT 0 NOT NULL,
	`tracking` text DEFAULT 'none' NOT NULL,
	`description` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "products_status_check" CHECK("products"."status" in ('Active', 'Inactive')),
	CONSTRAINT "products_reorder_point_check" CHECK("products"."reorder_point" >= 0),
	CONSTRAINT "products_tracking_check" CHECK("products"."tracking" in ('none', 'lot', 'serial'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `products_tenant_sku_unique` ON `products` (`tenant_id`,`sku`);--> statement-breakpoint
CREATE UNIQUE INDEX `products_tenant_barcode_unique` ON `products` (`tenant_id`,`barcode`) WHERE "products"."barcode" is not null;--> statement-breakpoint
CREATE INDEX `products_tenant_created_idx` ON `products` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `products_tenant_updated_idx` ON `products` (`tenant_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `products_tenant_name_idx` ON `products` (`tenant_id`,`name`,`id`);--> statement-breakpoint
CREATE INDEX `products_tenant_price_idx` ON `products` (`tenant_id`,`price_e4`,`id`);--> statement-breakpoint
CREATE INDEX `products_tenant_category_created_idx` ON `products` (`tenant_id`,`category`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `products_tenant_status_created_idx` ON `products` (`tenant_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `warehouses` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`address` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `warehouses_tenant_code_unique` ON `warehouses` (`tenant_id`,`code`);--> statement-breakpoint
CREATE INDEX `warehouses_tenant_created_idx` ON `warehouses` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`tenant_id` text NOT NULL,
	`key` text NOT NULL,
	`credential` text DEFAULT '' NOT NULL,
	`request_hash` text NOT NULL,
	`status` text NOT NULL,
	`response_status` integer,
	`sealed_response_body` text,
	`response_headers` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `outbox_events` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` text NOT NULL,
	`dispatched_at` text
);
--> statement-breakpoint
CREATE INDEX `outbox_events_tenant_created_idx` ON `outbox_events` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `outbox_events_pending_idx` ON `outbox_events` (`created_at`) WHERE "outbox_events"."dispatched_at" is null;--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`delivery_id` text NOT NULL,
	`subscription_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`status_code` integer,
	`duration_ms` integer NOT NULL,
	`error` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_tenant_subscription_idx` ON `webhook_attempts` (`tenant_id`,`subscription_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`subscription_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`last_duration_ms` integer,
	`next_attempt_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_subscription_event_unique` ON `webhook_deliveries` (`subscription_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_tenant_subscription_idx` ON `webhook_deliveries` (`tenant_id`,`subscription_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`events` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`secret_ciphertext` text NOT NULL,
	`previous_secret_ciphertext` text,
	`previous_secret_expires_at` text,
	`disabled_reason` text,
	`failing_since` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_subscriptions_tenant_created_idx` ON `webhook_subscriptions` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `stock_levels` (
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`location_id` text NOT NULL,
	`warehouse_id` text NOT NULL,
	`lot_id` text DEFAULT '' NOT NULL,
	`on_hand` integer DEFAULT 0 NOT NULL,
	`reserved` integer DEFAULT 0 NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `product_id`, `location_id`, `lot_id`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`warehouse_id`) REFERENCES `warehouses`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "stock_levels_on_hand_check" CHECK("stock_levels"."on_hand" >= 0),
	CONSTRAINT "stock_levels_on_hand_max_check" CHECK("stock_levels"."on_hand" <= 1000000000),
	CONSTRAINT "stock_levels_reserved_check" CHECK("stock_levels"."reserved" >= 0 and "stock_levels"."reserved" <= "stock_levels"."on_hand")
);
--> statement-breakpoint
CREATE INDEX `stock_levels_tenant_location_idx` ON `stock_levels` (`tenant_id`,`location_id`);--> statement-breakpoint
CREATE INDEX `stock_levels_tenant_warehouse_idx` ON `stock_levels` (`tenant_id`,`warehouse_id`);--> statement-breakpoint
CREATE TABLE `stock_movements` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`location_id` text NOT NULL,
	`warehouse_id` text NOT NULL,
	`lot_id` text DEFAULT '' NOT NULL,
	`serial_numbers` text,
	`delta` integer NOT NULL,
	`on_hand_after` integer NOT NULL,
	`reason` text NOT NULL,
	`reference_type` text,
	`reference_id` text,
	`notes` text,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`request_id` text,
	`created_at` text NOT NULL,
	CONSTRAINT "stock_movements_delta_check" CHECK("stock_movements"."delta" <> 0)
);
--> statement-breakpoint
CREATE INDEX `stock_movements_tenant_created_idx` ON `stock_movements` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `stock_movements_tenant_product_idx` ON `stock_movements` (`tenant_id`,`product_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `stock_movements_tenant_location_idx` ON `stock_movements` (`tenant_id`,`location_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `stock_movements_tenant_reference_idx` ON `stock_movements` (`tenant_id`,`reference_id`);--> statement-breakpoint
CREATE INDEX `stock_movements_tenant_lot_idx` ON `stock_movements` (`tenant_id`,`lot_id`,`created_at`) WHERE "stock_movements"."lot_id" <> '';--> statement-breakpoint
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
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "serial_numbers_on_hand_check" CHECK("serial_numbers"."on_hand" in (0, 1))
);
--> statement-breakpoint
CREATE INDEX `serial_numbers_tenant_location_idx` ON `serial_numbers` (`tenant_id`,`location_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `order_counters` (
	`tenant_id` text NOT NULL,
	`type` text NOT NULL,
	`value` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`tenant_id`, `type`)
);
--> statement-breakpoint
CREATE TABLE `order_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`order_id` text NOT NULL,
	`line_no` integer NOT NULL,
	`product_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`unit_price_e4` integer NOT NULL,
	`received_quantity` integer DEFAULT 0 NOT NULL,
	`lot_number` text,
	`lots` text,
	`serial_numbers` text,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "order_lines_quantity_check" CHECK("order_lines"."quantity" > 0),
	CONSTRAINT "order_lines_received_check" CHECK("order_lines"."received_quantity" >= 0 and "order_lines"."received_quantity" <= "order_lines"."quantity")
);
--> statement-breakpoint
CREATE INDEX `order_lines_tenant_order_idx` ON `order_lines` (`tenant_id`,`order_id`,`line_no`);--> statement-breakpoint
CREATE INDEX `order_lines_tenant_product_idx` ON `order_lines` (`tenant_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `order_reservations` (
	`tenant_id` text NOT NULL,
	`order_id` text NOT NULL,
	`line_id` text NOT NULL,
	`product_id` text NOT NULL,
	`location_id` text NOT NULL,
	`lot_id` text DEFAULT '' NOT NULL,
	`quantity` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `order_id`, `line_id`, `location_id`, `lot_id`),
	CONSTRAINT "order_reservations_quantity_check" CHECK("order_reservations"."quantity" > 0)
);
--> statement-breakpoint
CREATE INDEX `order_reservations_tenant_product_idx` ON `order_reservations` (`tenant_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `order_status_history` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`order_id` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `order_status_history_tenant_order_idx` ON `order_status_history` (`tenant_id`,`order_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`number` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`customer_id` text,
	`supplier` text,
	`warehouse_id` text,
	`shipping_address` text,
	`tracking_number` text,
	`notes` text,
	`expected_at` text,
	`total_e4` integer DEFAULT 0 NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "orders_type_check" CHECK("orders"."type" in ('sales', 'purchase'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_tenant_number_unique` ON `orders` (`tenant_id`,`number`);--> statement-breakpoint
CREATE INDEX `orders_tenant_created_idx` ON `orders` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `orders_tenant_status_created_idx` ON `orders` (`tenant_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_tenant_type_created_idx` ON `orders` (`tenant_id`,`type`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_tenant_customer_idx` ON `orders` (`tenant_id`,`customer_id`,`created_at`);