import { countryName } from "../../order-core/countries";
import type { PackageRecord } from "../../shipment-core/schemas";
import type { Address, LabelRequest } from "./carrier";

// A 4 x 6 inch shipping label at 203 dpi in ZPL II, the language of Zebra and compatible label printers.
// Written out here: ZPL is a few text commands, and the printer draws the barcodes itself (no npm package
// renders ZPL better than this template does).

/** ZPL field data cannot hold ^ or ~ (its command prefixes). */
const text = (value: string) => value.replace(/[\^~]/g, " ");

const line = (y: number, size: number, value: string) => `^FO40,${y}^A0N,${size},${size}^FD${text(value)}^FS`;

const weightText = (pkg: PackageRecord) => (pkg.weight ? `${pkg.weight.value} ${pkg.weight.unit}` : "");

/**
 * The ship-to block's lines, as a carrier reads an address: the recipient, the company, the street lines, the
 * postal code and city, the region, the country (its English name, or the name as written). At most 6.
 */
function shipToLines(to: Address): string[] {
  const country = to.countryCode ? countryName(to.countryCode).toUpperCase() : to.country;
  return [to.name, to.company, to.street, to.street2, `${to.zip} ${to.city}`, to.state, country].filter(
    (part): part is string => Boolean(part),
  );
}

export function zplLabel(request: LabelRequest, pkg: PackageRecord, trackingNumber: string): string {
  const { shipment, shipTo, shipFrom } = request;
  const carrier = [shipment.carrier, shipment.service].filter(Boolean).join(" ");
  // Up to 7 lines between the SHIP TO heading and the rule; the font shrinks when there are more than 3.
  const to = shipTo ? shipToLines(shipTo) : [];
  const size = to.length > 3 ? 32 : 50;
  const gap = to.length > 3 ? 36 : 60;
  return [
    "^XA",
    "^CI28", // field data is UTF-8
    "^PW812^LL1218",
    line(30, 30, `FROM ${shipFrom.name}${shipFrom.address ? `, ${shipFrom.address}` : ""}`),
    line(80, 40, "SHIP TO"),
    ...to.map((text, i) => line(130 + i * gap, size, text)),
    "^FO30,390^GB752,3,3^FS",
    line(410, 36, `ORDER ${request.orderNumber}   PACKAGE ${pkg.packageNo} OF ${shipment.packages.length}`),
    line(460, 36, [carrier, weightText(pkg)].filter(Boolean).join("   ")),
    line(520, 30, "TRACKING"),
    `^FO40,560^BY3^BCN,160,Y,N,N^FD${text(trackingNumber)}^FS`,
    "^FO30,820^GB752,3,3^FS",
    line(840, 30, "SSCC"),
    // GS1-128 (UCC/EAN mode D): the application identifier (00) and the 18 digits of the SSCC.
    `^FO40,880^BY3^BCN,220,Y,N,N,D^FD(00)${pkg.sscc}^FS`,
    "^XZ",
  ].join("\n");
}
