ALTER TABLE `inventory_count_lines` ADD `expected_serials` text;--> statement-breakpoint
ALTER TABLE `inventory_count_lines` ADD `counted_serials` text;--> statement-breakpoint
ALTER TABLE `inventory_count_lines` ADD `serials_at_count` text;