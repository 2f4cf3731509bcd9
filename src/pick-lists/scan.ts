import { and, asc, eq, inArray, or, type SQL } from "drizzle-orm";
import type { BatchResults } from "../db/batch";
import type { TenantDb } from "../db/client";
import { locations, productPackagings, products } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { gtinSpellings } from "../gs1/gtin-spellings";
import { conflict } from "../http/errors";
import type { PickListLineRow } from "./records";

// What a scanner sent, resolved against the pick list: the location (id or code) in the list's warehouse,
// the product (id, SKU or barcode, a GTIN in any of its spellings), the warehouse's packing location, and the line the scan confirms.

/**
 * The reads that resolve a scan in `warehouseId`'s warehouse (its id, or a select of it, so they can go in the
 * same batch as the pick list's own read), for `scannedFrom`.
 */
export function scanReads(
  tdb: TenantDb,
  warehouseId: string | SQL,
  scan: { location: string; product: string },
) {
  const { db } = tdb;
  const barcodes = gtinSpellings(scan.product);
  return {
    locations: db
      .select({ id: locations.id, code: locations.code })
      .from(locations)
      .where(
        inTenant(
          tdb,
          locations,
          eq(locations.warehouseId, warehouseId),
          or(eq(locations.id, scan.location), eq(locations.code, scan.location)),
        ),
      ),
    products: db
      .select({ id: products.id, sku: products.sku, tracking: products.tracking })
      .from(products)
      .where(
        inTenant(
          tdb,
          products,
          or(
            eq(products.id, scan.product),
            eq(products.sku, scan.product),
            inArray(products.barcode, barcodes),
          ),
        ),
      ),
    // A packaging's barcode names its product and one pack of it.
    packaging: db
      .select({
        id: products.id,
        sku: products.sku,
        tracking: products.tracking,
        units: productPackagings.quantity,
      })
      .from(productPackagings)
      .innerJoin(products, eq(products.id, productPackagings.productId))
      .where(inTenant(tdb, productPackagings, inArray(productPackagings.barcode, barcodes))),
    packing: db
      .select({ id: locations.id })
      .from(locations)
      .where(
        and(
          inTenant(tdb, locations, eq(locations.warehouseId, warehouseId), eq(locations.type, "packing")),
          eq(locations.active, true),
        ),
      )
      .orderBy(asc(locations.createdAt))
      .limit(1),
  };
}

/** What `scanReads` read: the location scanned, every product the code names, the packing location. */
export function scannedFrom(read: BatchResults<ReturnType<typeof scanReads>>) {
  // One code may name products of several owners (SKUs and barcodes are unique per merchant): every match is
  // kept, and the line the scan confirms picks its own (`lineOfScan`), the merchant of the work at hand.
  const matches: ScannedProduct[] = [
    ...read.products,
    ...read.packaging.map(({ units, ...product }) => ({ ...product, packUnits: units })),
  ];
  return { location: read.locations[0], products: matches, packing: read.packing[0] };
}

/** A product a scan names; `packUnits`: the units of the pack scanned, when the code was a packaging's barcode. */
interface ScannedProduct {
  id: string;
  sku: string;
  tracking: "none" | "lot" | "serial";
  packUnits?: number;
}

type Scanned = ReturnType<typeof scannedFrom>;

const mismatch = (field: string, expected: string, got: string, line: PickListLineRow) =>
  conflict(`Scanned ${field} ${got} does not match line ${line.lineNo}`, [
    `${field}: expected ${expected} (line ${line.lineNo}), scanned ${got}`,
  ]);

/**
 * The open line a scan confirms, and which of the products the code names is that line's (a code may name several
 * owners' products): the line named, or the first open line (walking order) for the scanned
 * location, product and lot. A scan that matches no open line is a 409 naming what was expected.
 */
export function lineOfScan(
  lines: readonly PickListLineRow[],
  scanned: Scanned,
  input: { lineId?: string; location: string; product: string; lotNumber?: string },
): { line: PickListLineRow; product: ScannedProduct } {
  const open = lines.filter((l) => l.status === "open");
  const names = (l: PickListLineRow) => scanned.products.some((p) => p.id === l.productId);
  let line: PickListLineRow | undefined;
  if (input.lineId) {
    line = lines.find((l) => l.id === input.lineId);
    if (!line)
      throw conflict(`Line ${input.lineId} is not on this pick list`, [
        `lineId: ${input.lineId} is not on this pick list`,
      ]);
    if (line.status !== "open")
      throw conflict(`Line ${line.lineNo} is ${line.status}`, [
        `lineId: line ${line.lineNo} is ${line.status}`,
      ]);
  } else {
    const atLocation = open.filter((l) => l.locationId === scanned.location?.id);
    const next = atLocation[0] ?? open[0];
    if (!next) throw conflict("Every line of this pick list is done");
    line =
      atLocation.find(
        (l) => names(l) && (l.lotNumber ?? undefined) === (input.lotNumber ?? l.lotNumber ?? undefined),
      ) ??
      atLocation.find(names) ??
      next;
  }
  if (scanned.location?.id !== line.locationId)
    throw mismatch("location", line.locationCode, input.location, line);
  const product = scanned.products.find((p) => p.id === line.productId);
  if (!product) throw mismatch("product", line.sku, input.product, line);
  if ((line.lotNumber ?? undefined) !== input.lotNumber) {
    throw mismatch("lotNumber", line.lotNumber ?? "no lot", input.lotNumber ?? "no lot", line);
  }
  return { line, product };
}
