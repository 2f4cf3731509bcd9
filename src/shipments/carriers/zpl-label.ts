import type { PackageRecord } from "../../shipment-core/schemas";
import type { LabelRequest } from "./carrier";

// A 4 x 6 inch shipping label at 203 dpi in ZPL II, the language of Zebra and compatible label printers.
// Written out here: ZPL is a few text commands, and the printer draws the barcodes itself (no npm package
// renders ZPL better than this template does).

/** ZPL field data cannot hold ^ or ~ (its command prefixes). */
const text = (value: string) => value.replace(/[\^~]/g, " ");

const line = (y: number, size: number, value: string) => `^FO40,${y}^A0N,${size},${size}^FD${text(value)}^FS`;

const weightText = (pkg: PackageRecord) => (pkg.weight ? `${pkg.weight.value} ${pkg.weight.unit}` : "");

export function zplLabel(request: LabelRequest, pkg: PackageRecord, trackingNumber: string): string {
  const { shipment, shipTo, shipFrom } = request;
  const carrier = [shipment.carrier, shipment.service].filter(Boolean).join(" ");
  return [
    "^XA",
    "^CI28", // field data is UTF-8
    "^PW812^LL1218",
    line(30, 30, `FROM ${shipFrom.name}${shipFrom.address ? `, ${shipFrom.address}` : ""}`),
    line(90, 40, "SHIP TO"),
    ...(shipTo ? [line(140, 50, shipTo.street), line(200, 50, `${shipTo.zip} ${shipTo.city}`)] : []),
    "^FO30,270^GB752,3,3^FS",
    line(290, 36, `ORDER ${request.orderNumber}   PACKAGE ${pkg.packageNo} OF ${shipment.packages.length}`),
    line(340, 36, [carrier, weightText(pkg)].filter(Boolean).join("   ")),
    line(400, 30, "TRACKING"),
    `^FO40,440^BY3^BCN,160,Y,N,N^FD${text(trackingNumber)}^FS`,
    "^FO30,700^GB752,3,3^FS",
    line(720, 30, "SSCC"),
    // GS1-128 (UCC/EAN mode D): the application identifier (00) and the 18 digits of the SSCC.
    `^FO40,760^BY3^BCN,220,Y,N,N,D^FD(00)${pkg.sscc}^FS`,
    "^XZ",
  ].join("\n");
}
