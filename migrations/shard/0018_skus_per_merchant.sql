DROP INDEX `product_packagings_tenant_barcode_unique`;--> statement-breakpoint
CREATE INDEX `product_packagings_tenant_barcode_idx` ON `product_packagings` (`tenant_id`,`barcode`);--> statement-breakpoint
DROP INDEX `products_tenant_sku_unique`;--> statement-breakpoint
DROP INDEX `products_tenant_barcode_unique`;--> statement-breakpoint
CREATE UNIQUE INDEX `products_tenant_merchant_sku_unique` ON `products` (`tenant_id`,`merchant_id`,`sku`) WHERE "products"."merchant_id" is not null;--> statement-breakpoint
CREATE INDEX `products_tenant_sku_idx` ON `products` (`tenant_id`,`sku`);--> statement-breakpoint
CREATE UNIQUE INDEX `products_tenant_merchant_barcode_unique` ON `products` (`tenant_id`,`merchant_id`,`barcode`) WHERE "products"."barcode" is not null and "products"."merchant_id" is not null;--> statement-breakpoint
CREATE INDEX `products_tenant_barcode_idx` ON `products` (`tenant_id`,`barcode`);--> statement-breakpoint
CREATE UNIQUE INDEX `products_tenant_sku_unique` ON `products` (`tenant_id`,`sku`) WHERE "products"."merchant_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX `products_tenant_barcode_unique` ON `products` (`tenant_id`,`barcode`) WHERE "products"."barcode" is not null and "products"."merchant_id" is null;--> statement-breakpoint
-- A barcode names one thing per owner (the tenant's own goods, or one merchant's: docs/decisions/merchants.md, "SKUs
-- per merchant"): a packaging's barcode may not be another packaging's nor a product's of the same owner, nor the
-- other way round. A packaging's owner is its product's merchant, which product_packagings does not carry, so
-- these triggers replace its unique index and 0012's tenant-wide triggers.
DROP TRIGGER `product_packagings_barcode_taken_insert`;--> statement-breakpoint
DROP TRIGGER `products_barcode_taken_insert`;--> statement-breakpoint
DROP TRIGGER `products_barcode_taken_update`;--> statement-breakpoint
CREATE TRIGGER `product_packagings_barcode_taken_insert` BEFORE INSERT ON `product_packagings`
WHEN new.barcode IS NOT NULL AND EXISTS (
  SELECT 1 FROM products owner, products p
  WHERE owner.tenant_id = new.tenant_id AND owner.id = new.product_id
    AND p.tenant_id = new.tenant_id AND p.barcode = new.barcode AND p.merchant_id IS owner.merchant_id
  UNION ALL
  SELECT 1 FROM products owner, product_packagings q, products p
  WHERE owner.tenant_id = new.tenant_id AND owner.id = new.product_id
    AND q.tenant_id = new.tenant_id AND q.barcode = new.barcode
    AND p.tenant_id = q.tenant_id AND p.id = q.product_id AND p.merchant_id IS owner.merchant_id)
BEGIN SELECT RAISE(ABORT, 'barcode_taken'); END;
--> statement-breakpoint
CREATE TRIGGER `products_barcode_taken_insert` BEFORE INSERT ON `products`
WHEN new.barcode IS NOT NULL AND EXISTS (
  SELECT 1 FROM product_packagings q, products p
  WHERE q.tenant_id = new.tenant_id AND q.barcode = new.barcode
    AND p.tenant_id = q.tenant_id AND p.id = q.product_id AND p.merchant_id IS new.merchant_id)
BEGIN SELECT RAISE(ABORT, 'barcode_taken'); END;
--> statement-breakpoint
-- A product's barcode or merchant changing: its barcode against the new owner's packagings, and its own
-- packagings' barcodes (they move with it) against the new owner's products and packagings.
CREATE TRIGGER `products_barcode_taken_update` BEFORE UPDATE OF barcode, merchant_id ON `products`
WHEN (new.barcode IS NOT NULL AND EXISTS (
  SELECT 1 FROM product_packagings q, products p
  WHERE q.tenant_id = new.tenant_id AND q.barcode = new.barcode
    AND p.tenant_id = q.tenant_id AND p.id = q.product_id AND p.merchant_id IS new.merchant_id))
  OR (new.merchant_id IS NOT old.merchant_id AND EXISTS (
  SELECT 1 FROM product_packagings mine, products p
  WHERE mine.tenant_id = new.tenant_id AND mine.product_id = new.id AND mine.barcode IS NOT NULL
    AND p.tenant_id = new.tenant_id AND p.barcode = mine.barcode AND p.id <> new.id AND p.merchant_id IS new.merchant_id
  UNION ALL
  SELECT 1 FROM product_packagings mine, product_packagings q, products p
  WHERE mine.tenant_id = new.tenant_id AND mine.product_id = new.id AND mine.barcode IS NOT NULL
    AND q.tenant_id = new.tenant_id AND q.barcode = mine.barcode AND q.product_id <> new.id
    AND p.tenant_id = q.tenant_id AND p.id = q.product_id AND p.merchant_id IS new.merchant_id))
BEGIN SELECT RAISE(ABORT, 'barcode_taken'); END;
