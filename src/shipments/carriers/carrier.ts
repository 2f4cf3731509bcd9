import type { ShippingAddress } from "../../order-core/schemas";
import type { ShipmentRecord } from "../../shipment-core/schemas";

// The seam between shipments and carriers: an adapter turns a packed shipment into a tracking number and a
// label per package. `manual` is built in; a real carrier (or a tenant's label service) is another adapter.

/** Where the parcels go: the order's shipping address as stored (older orders have street, city and zip only). */
export type Address = ShippingAddress;

export interface LabelRequest {
  shipment: ShipmentRecord;
  orderNumber: string;
  shipTo: Address | null;
  /** The warehouse the parcels leave from. */
  shipFrom: { name: string; address: string | null };
  /** What the caller sent (the manual adapter's tracking numbers), keyed by package id. */
  trackingNumbers: ReadonlyMap<string, string>;
}

export interface PackageLabel {
  packageId: string;
  trackingNumber: string;
  format: "pdf" | "zpl";
  label: Uint8Array;
}

export interface CarrierAdapter {
  /** A label for every package of the shipment, or an AppError (400 for the caller's input, 502 for the carrier). */
  labels(request: LabelRequest): Promise<PackageLabel[]>;
}

export const labelContentType = { pdf: "application/pdf", zpl: "application/zpl" } as const;
