import { validationError } from "../../http/validation";
import type { CarrierAdapter } from "./carrier";
import { zplLabel } from "./zpl-label";

const utf8 = new TextEncoder();

/**
 * The built-in carrier: the caller bought the labels elsewhere (or hands parcels over at a counter) and sends
 * each package's tracking number; the adapter renders a ZPL label per package with it and the SSCC.
 */
export const manualCarrier: CarrierAdapter = {
  async labels(request) {
    const missing = request.shipment.packages.flatMap((p) =>
      request.trackingNumbers.has(p.id)
        ? []
        : [`trackingNumbers: package ${p.packageNo} (${p.id}) needs a tracking number`],
    );
    if (missing.length) throw validationError(missing);
    return request.shipment.packages.map((pkg) => {
      const trackingNumber = request.trackingNumbers.get(pkg.id) as string;
      return {
        packageId: pkg.id,
        trackingNumber,
        format: "zpl" as const,
        label: utf8.encode(zplLabel(request, pkg, trackingNumber)),
      };
    });
  },
};
