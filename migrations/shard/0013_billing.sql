CREATE TABLE `billing_invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`merchant_id` text NOT NULL,
	`period` text NOT NULL,
	`status` text DEFAULT 'issued' NOT NULL,
	`currency` text NOT NULL,
	`lines` text NOT NULL,
	`total_e4` text NOT NULL,
	`covered_until` text NOT NULL,
	`created_by` text,
	`voided_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	CONSTRAINT "billing_invoices_status_check" CHECK("billing_invoices"."status" in ('issued', 'voided'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `billing_invoices_issued_period_unique` ON `billing_invoices` (`tenant_id`,`merchant_id`,`period`) WHERE "billing_invoices"."status" = 'issued';--> statement-breakpoint
CREATE INDEX `billing_invoices_tenant_created_idx` ON `billing_invoices` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `billing_rate_cards` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`merchant_id` text NOT NULL,
	`currency` text NOT NULL,
	`effective_from` text NOT NULL,
	`rates` text NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `billing_rate_cards_merchant_day_unique` ON `billing_rate_cards` (`tenant_id`,`merchant_id`,`effective_from`);--> statement-breakpoint
CREATE INDEX `billing_rate_cards_tenant_created_idx` ON `billing_rate_cards` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `billing_storage_snapshots` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`merchant_id` text NOT NULL,
	`day` text NOT NULL,
	`units` integer NOT NULL,
	`by_location_type` text NOT NULL,
	`taken_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `billing_storage_snapshots_merchant_day_unique` ON `billing_storage_snapshots` (`tenant_id`,`merchant_id`,`day`);