CREATE TABLE `moving_tenants` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`stage` text NOT NULL,
	CONSTRAINT "moving_tenants_stage_check" CHECK("moving_tenants"."stage" in ('capturing', 'draining', 'fenced', 'deleting'))
);
--> statement-breakpoint
CREATE TABLE `tenant_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`table_name` text NOT NULL,
	`row_key` text NOT NULL,
	`op` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tenant_changes_tenant_idx` ON `tenant_changes` (`tenant_id`,`id`);--> statement-breakpoint
CREATE INDEX `tenant_changes_row_idx` ON `tenant_changes` (`tenant_id`,`table_name`,`row_key`,`op`);