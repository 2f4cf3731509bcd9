CREATE TABLE `return_counters` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`value` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `return_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`return_id` text NOT NULL,
	`line_no` integer NOT NULL,
	`order_id` text NOT NULL,
	`order_line_id` text NOT NULL,
	`product_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`received_quantity` integer DEFAULT 0 NOT NULL,
	`reason` text NOT NULL,
	CONSTRAINT "return_lines_quantity_check" CHECK("return_lines"."quantity" > 0),
	CONSTRAINT "return_lines_received_check" CHECK("return_lines"."received_quantity" >= 0 and "return_lines"."received_quantity" <= "return_lines"."quantity")
);
--> statement-breakpoint
CREATE INDEX `return_lines_tenant_return_idx` ON `return_lines` (`tenant_id`,`return_id`,`line_no`);--> statement-breakpoint
CREATE INDEX `return_lines_tenant_order_line_idx` ON `return_lines` (`tenant_id`,`order_line_id`);--> statement-breakpoint
CREATE TABLE `return_receipt_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`receipt_id` text NOT NULL,
	`return_id` text NOT NULL,
	`return_line_id` text NOT NULL,
	`product_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`disposition` text NOT NULL,
	`location_id` text NOT NULL,
	`warehouse_id` text NOT NULL,
	`lot_id` text DEFAULT '' NOT NULL,
	`serial_numbers` text,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`created_at` text NOT NULL,
	CONSTRAINT "return_receipt_lines_quantity_check" CHECK("return_receipt_lines"."quantity" > 0),
	CONSTRAINT "return_receipt_lines_disposition_check" CHECK("return_receipt_lines"."disposition" in ('restock', 'quarantine', 'scrap'))
);
--> statement-breakpoint
CREATE INDEX `return_receipt_lines_tenant_return_idx` ON `return_receipt_lines` (`tenant_id`,`return_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `return_receipt_lines_tenant_created_idx` ON `return_receipt_lines` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `returns` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`number` text NOT NULL,
	`order_id` text NOT NULL,
	`status` text DEFAULT 'requested' NOT NULL,
	`notes` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_by` text,
	`authorized_at` text,
	`received_at` text,
	`closed_at` text,
	`rejected_at` text,
	`cancelled_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "returns_status_check" CHECK("returns"."status" in ('requested', 'authorized', 'received', 'closed', 'rejected', 'cancelled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `returns_tenant_number_unique` ON `returns` (`tenant_id`,`number`);--> statement-breakpoint
CREATE INDEX `returns_tenant_created_idx` ON `returns` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `returns_tenant_status_idx` ON `returns` (`tenant_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `returns_tenant_order_idx` ON `returns` (`tenant_id`,`order_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `locations` ADD `sellable` integer DEFAULT true NOT NULL;--> statement-breakpoint
-- Stock at a non-sellable location is never reserved (orders, holds, picks): the last guard under any race.
CREATE TRIGGER `stock_levels_reserve_sellable` BEFORE UPDATE OF `reserved` ON `stock_levels`
WHEN NEW.`reserved` > OLD.`reserved`
  AND EXISTS (SELECT 1 FROM `locations` WHERE `locations`.`id` = NEW.`location_id` AND `locations`.`sellable` = 0)
BEGIN
  SELECT RAISE(ABORT, 'location_not_sellable');
END;
