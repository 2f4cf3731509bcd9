import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { packages } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { AppError, notFound } from "../http/errors";
import { labelContentType } from "./carriers/carrier";
import { labelKey } from "./label-key";

/** A package's label as stored (PDF or ZPL), named by the package's SSCC; 404 before it has one. */
export async function readLabel(tdb: TenantDb, bucket: R2Bucket, shipmentId: string, packageId: string) {
  const [pkg] = await tdb.db
    .select({ sscc: packages.sscc, format: packages.labelFormat })
    .from(packages)
    .where(inTenant(tdb, packages, eq(packages.shipmentId, shipmentId), eq(packages.id, packageId)));
  if (!pkg) throw notFound("Package");
  const object = pkg.format
    ? await bucket.get(labelKey(tdb.tenantId, shipmentId, packageId, pkg.format))
    : null;
  if (!pkg.format || !object) {
    throw new AppError(
      "NOT_FOUND",
      `Package ${packageId} has no label yet: POST /shipments/${shipmentId}/label`,
    );
  }
  return new Response(object.body, {
    headers: {
      "content-type": labelContentType[pkg.format],
      "content-disposition": `attachment; filename="${pkg.sscc}.${pkg.format}"`,
    },
  });
}
