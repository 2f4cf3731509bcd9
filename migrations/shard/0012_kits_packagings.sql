CREATE TABLE `kit_components` (
	`tenant_id` text NOT NULL,
	`kit_id` text NOT NULL,
	`component_id` text NOT NULL,
	`quantity` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `kit_id`, `component_id`),
	FOREIGN KEY (`kit_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`component_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "kit_components_quantity_check" CHECK("kit_components"."quantity" >= 1)
);
--> statement-breakpoint
CREATE INDEX `kit_components_tenant_component_idx` ON `kit_components` (`tenant_id`,`component_id`);--> statement-breakpoint
CREATE TABLE `product_packagings` (
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`quantity` integer NOT NULL,
	`barcode` text,
	PRIMARY KEY(`tenant_id`, `product_id`, `code`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "product_packagings_quantity_check" CHECK("product_packagings"."quantity" >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `product_packagings_tenant_barcode_unique` ON `product_packagings` (`tenant_id`,`barcode`) WHERE "product_packagings"."barcode" is not null;--> statement-breakpoint
-- Added in place (SQLite admits a CHECK on an added column): rebuilding products would drop its search and count triggers.
ALTER TABLE `products` ADD `type` text DEFAULT 'stocked' NOT NULL CONSTRAINT "products_type_check" CHECK("type" in ('stocked', 'kit'));--> statement-breakpoint
ALTER TABLE `order_lines` ADD `kit_line_id` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `kit_lines` text;--> statement-breakpoint
-- One barcode names one thing in a tenant: a packaging's barcode may not be a product's, nor the other way round
-- (the unique indexes cover each table alone).
CREATE TRIGGER `product_packagings_barcode_taken_insert` BEFORE INSERT ON `product_packagings`
WHEN new.barcode IS NOT NULL AND EXISTS (SELECT 1 FROM products WHERE tenant_id = new.tenant_id AND barcode = new.barcode)
BEGIN SELECT RAISE(ABORT, 'barcode_taken'); END;
--> statement-breakpoint
CREATE TRIGGER `products_barcode_taken_insert` BEFORE INSERT ON `products`
WHEN new.barcode IS NOT NULL AND EXISTS (SELECT 1 FROM product_packagings WHERE tenant_id = new.tenant_id AND barcode = new.barcode)
BEGIN SELECT RAISE(ABORT, 'barcode_taken'); END;
--> statement-breakpoint
CREATE TRIGGER `products_barcode_taken_update` BEFORE UPDATE OF barcode ON `products`
WHEN new.barcode IS NOT NULL AND EXISTS (SELECT 1 FROM product_packagings WHERE tenant_id = new.tenant_id AND barcode = new.barcode)
BEGIN SELECT RAISE(ABORT, 'barcode_taken'); END;
