CREATE INDEX `jobs_tenant_upload_idx` ON `jobs` (`tenant_id`,`upload_id`);--> statement-breakpoint
CREATE INDEX `uploads_expires_idx` ON `uploads` (`expires_at`);