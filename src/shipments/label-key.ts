/** Where a package's label is kept in the LABELS bucket: by tenant, shipment and package. */
export const labelKey = (tenantId: string, shipmentId: string, packageId: string, format: "pdf" | "zpl") =>
  `${tenantId}/${shipmentId}/${packageId}.${format}`;
