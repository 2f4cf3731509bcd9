import { eq, inArray, or, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { TenantDb } from "../db/client";
import {
  locations,
  lots,
  packages,
  productPackagings,
  products,
  shipments,
  warehouses,
} from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { gtinSpellings } from "../gs1/gtin-spellings";
import { ssccOf } from "../gs1/sscc";
import { notFound } from "../http/errors";
import type { BarcodeResolution } from "./schemas";

/**
 * Everything a scanned code names, in one round trip: products by barcode or SKU, packagings by barcode (with
 * their product and size; a GTIN matches whatever its length, `gtinSpellings`), locations by code (in any
 * warehouse), lots by number, and packages by SSCC (18 digits, or 20 with the `00` application identifier)
 * when the caller reads orders. Nothing named: 404.
 */
export async function resolveBarcode(
  tdb: TenantDb,
  code: string,
  readsOrders: boolean,
): Promise<BarcodeResolution> {
  const { db } = tdb;
  const sscc = readsOrders ? ssccOf(code) : null;
  const barcodes = gtinSpellings(code);
  const read = await runBatch(tdb, {
    products: db
      .select({
        id: products.id,
        sku: products.sku,
        name: products.name,
        barcode: products.barcode,
        merchantId: products.merchantId,
      })
      .from(products)
      .where(inTenant(tdb, products, or(inArray(products.barcode, barcodes), eq(products.sku, code)))),
    packagings: db
      .select({
        productId: products.id,
        sku: products.sku,
        name: products.name,
        barcode: products.barcode,
        merchantId: products.merchantId,
        code: productPackagings.code,
        packagingName: sql<string>`${productPackagings.name}`.as("packaging_name"),
        quantity: productPackagings.quantity,
        packagingBarcode: sql<string>`${productPackagings.barcode}`.as("packaging_barcode"),
      })
      .from(productPackagings)
      .innerJoin(products, eq(products.id, productPackagings.productId))
      .where(inTenant(tdb, productPackagings, inArray(productPackagings.barcode, barcodes))),
    locations: db
      .select({
        id: locations.id,
        code: locations.code,
        name: locations.name,
        type: locations.type,
        warehouseId: locations.warehouseId,
        // Aliased: two columns named `code` in one row would collide.
        warehouseCode: sql<string>`${warehouses.code}`.as("warehouse_code"),
      })
      .from(locations)
      .innerJoin(warehouses, eq(warehouses.id, locations.warehouseId))
      .where(inTenant(tdb, locations, eq(locations.code, code))),
    lots: db
      .select({
        id: lots.id,
        number: lots.number,
        expiresAt: lots.expiresAt,
        productId: lots.productId,
        sku: products.sku,
      })
      .from(lots)
      .innerJoin(products, eq(products.id, lots.productId))
      .where(inTenant(tdb, lots, eq(lots.number, code))),
    packages: db
      .select({
        id: packages.id,
        sscc: packages.sscc,
        shipmentId: packages.shipmentId,
        orderId: shipments.orderId,
        trackingNumber: packages.trackingNumber,
      })
      .from(packages)
      .innerJoin(shipments, eq(shipments.id, packages.shipmentId))
      .where(inTenant(tdb, packages, eq(packages.sscc, sscc ?? ""))),
  });
  const matches: BarcodeResolution["matches"] = [
    ...read.products.map((product) => ({
      type: "product" as const,
      matchedOn:
        product.barcode !== null && barcodes.includes(product.barcode)
          ? ("barcode" as const)
          : ("sku" as const),
      product,
    })),
    ...read.packagings.map((p) => ({
      type: "packaging" as const,
      product: { id: p.productId, sku: p.sku, name: p.name, barcode: p.barcode, merchantId: p.merchantId },
      packaging: { code: p.code, name: p.packagingName, quantity: p.quantity, barcode: p.packagingBarcode },
    })),
    ...read.locations.map((location) => ({ type: "location" as const, location })),
    ...read.lots.map((lot) => ({ type: "lot" as const, lot })),
    ...(sscc ? read.packages.map((found) => ({ type: "package" as const, package: found })) : []),
  ];
  if (matches.length === 0) throw notFound(`Nothing named ${code}`);
  return { code, matches };
}
