CREATE TABLE `sign_in_clients` (
	`user_id` text NOT NULL,
	`client_hash` text NOT NULL,
	`last_sign_in_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `client_hash`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sign_in_clients_last_idx` ON `sign_in_clients` (`last_sign_in_at`);--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `credential` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `sealed_response_body` text;--> statement-breakpoint
ALTER TABLE `idempotency_keys` DROP COLUMN `response_body`;--> statement-breakpoint
CREATE INDEX `refresh_tokens_user_idx` ON `refresh_tokens` (`user_id`);