CREATE TABLE `job_chunks` (
	`tenant_id` text NOT NULL,
	`job_id` text NOT NULL,
	`chunk` integer NOT NULL,
	`processed` integer NOT NULL,
	`failed` integer NOT NULL,
	`errors` text NOT NULL,
	`bytes` integer,
	`job_status` text,
	`created_at` text NOT NULL,
	CONSTRAINT "job_chunks_job_running_check" CHECK("job_chunks"."job_status" = 'running')
);
--> statement-breakpoint
CREATE UNIQUE INDEX `job_chunks_tenant_job_chunk_unique` ON `job_chunks` (`tenant_id`,`job_id`,`chunk`);--> statement-breakpoint
CREATE TABLE `job_snapshot_rows` (
	`tenant_id` text NOT NULL,
	`job_id` text NOT NULL,
	`n` integer NOT NULL,
	`row` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `job_id`, `n`)
);
--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`upload_id` text,
	`options` text NOT NULL,
	`total` integer,
	`as_of` text,
	`as_of_seq` integer,
	`error` text,
	`actor_type` text NOT NULL,
	`actor_id` text NOT NULL,
	`request_id` text NOT NULL,
	`created_at` text NOT NULL,
	`started_at` text,
	`finished_at` text,
	CONSTRAINT "jobs_status_check" CHECK("jobs"."status" in ('queued', 'running', 'succeeded', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE INDEX `jobs_tenant_created_idx` ON `jobs` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`format` text NOT NULL,
	`bytes` integer NOT NULL,
	`filename` text,
	`actor_type` text NOT NULL,
	`actor_id` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `uploads_tenant_created_idx` ON `uploads` (`tenant_id`,`created_at`);