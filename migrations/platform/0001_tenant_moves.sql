CREATE TABLE `tenant_moves` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`from_shard` text NOT NULL,
	`to_shard` text NOT NULL,
	`status` text DEFAULT 'copying' NOT NULL,
	`reason` text,
	`rows_copied` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`finished_at` text,
	CONSTRAINT "tenant_moves_status_check" CHECK("tenant_moves"."status" in ('copying', 'verifying', 'switching', 'done', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenant_moves_one_active_idx` ON `tenant_moves` (`tenant_id`) WHERE "tenant_moves"."status" not in ('done', 'failed');--> statement-breakpoint
CREATE INDEX `tenant_moves_tenant_idx` ON `tenant_moves` (`tenant_id`,`created_at`);