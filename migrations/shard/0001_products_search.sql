-- Product search without scanning the tenant's table: an FTS5 index with the trigram tokenizer
-- (case-insensitive substring matching on sku, name and barcode for terms of 3+ characters),
-- kept in step with products by triggers. The tenant is not in the index (its id's trigrams would
-- match every row of the tenant); matches are joined back to products, which filters by tenant.
CREATE VIRTUAL TABLE `products_fts` USING fts5(
	`sku`, `name`, `barcode`,
	content='products', content_rowid='rowid', tokenize='trigram'
);
--> statement-breakpoint
CREATE TRIGGER `products_fts_insert` AFTER INSERT ON `products` BEGIN
	INSERT INTO products_fts(rowid, sku, name, barcode) VALUES (new.rowid, new.sku, new.name, coalesce(new.barcode, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `products_fts_delete` AFTER DELETE ON `products` BEGIN
	INSERT INTO products_fts(products_fts, rowid, sku, name, barcode) VALUES ('delete', old.rowid, old.sku, old.name, coalesce(old.barcode, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `products_fts_update` AFTER UPDATE OF sku, name, barcode ON `products` BEGIN
	INSERT INTO products_fts(products_fts, rowid, sku, name, barcode) VALUES ('delete', old.rowid, old.sku, old.name, coalesce(old.barcode, ''));
	INSERT INTO products_fts(rowid, sku, name, barcode) VALUES (new.rowid, new.sku, new.name, coalesce(new.barcode, ''));
END;
--> statement-breakpoint
-- The per-tenant product count (product_counts), exact because it changes in the same statement.
CREATE TRIGGER `product_counts_insert` AFTER INSERT ON `products` BEGIN
	INSERT INTO product_counts(tenant_id, count) VALUES (new.tenant_id, 1)
	ON CONFLICT(tenant_id) DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `product_counts_delete` AFTER DELETE ON `products` BEGIN
	UPDATE product_counts SET count = count - 1 WHERE tenant_id = old.tenant_id;
END;
