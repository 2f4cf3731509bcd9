import { z } from "@hono/zod-openapi";
import { lengthUnits, shipmentStatuses, weightUnits } from "../db/schema/tenant";
import { amountFields, withOneAmount } from "../stock";
import { LotNumber, SerialNumbers, withinSerialsPerRequest } from "../stock/schemas";

/** The most packages one shipment holds (each gets an SSCC). */
export const MAX_PACKAGES = 50;

// A positive amount with at most 3 decimals, stored exactly in thousandths.
const Measure = z
  .number({ error: "must be a number" })
  .min(0.001, "must be at least 0.001")
  .max(1_000_000, "must be at most 1000000")
  .refine((n) => Math.abs(n * 1000 - Math.round(n * 1000)) < 1e-6, "must have at most 3 decimals")
  .openapi({ description: "At least 0.001, at most 3 decimals." });

export const Weight = z
  .strictObject({ value: Measure, unit: z.enum(weightUnits, { error: "must be one of g, kg, oz, lb" }) })
  .openapi("Weight");

export const Dimensions = z
  .strictObject({
    length: Measure,
    width: Measure,
    height: Measure,
    unit: z.enum(lengthUnits, { error: "must be cm or in" }),
  })
  .openapi("Dimensions");

const PackageLineInput = withOneAmount(
  z.strictObject({
    orderLineId: z.uuid("must be a UUID (a line of this order)"),
    ...amountFields(
      z
        .number({ error: "must be an integer" })
        .int("must be an integer")
        .min(1, "must be at least 1")
        .max(1_000_000_000, "must be at most 1000000000"),
    ),
    lotNumber: LotNumber.optional(),
    serialNumbers: SerialNumbers.optional(),
  }),
);

const PackageInput = z.strictObject({
  packageType: z.string().trim().min(1).max(64).optional().openapi({ example: "box-m" }),
  weight: Weight,
  dimensions: Dimensions.optional(),
  lines: z
    .array(PackageLineInput)
    .min(1, "must hold at least one line")
    .max(500, "must hold at most 500 lines"),
});

export const CreateShipmentBody = z
  .strictObject({
    packages: z
      .array(PackageInput)
      .min(1, "must hold at least one package")
      .max(MAX_PACKAGES, `must hold at most ${MAX_PACKAGES} packages`)
      .refine((packages) => withinSerialsPerRequest(packages.flatMap((p) => p.lines)), {
        message: "must name at most 5000 serial numbers in all",
      }),
    carrier: z.string().trim().min(1).max(64).optional().openapi({ example: "dhl" }),
    service: z.string().trim().min(1).max(64).optional().openapi({ example: "express" }),
  })
  .openapi("CreateShipmentRequest");
export type CreateShipmentBody = z.infer<typeof CreateShipmentBody>;
type PackageInput = CreateShipmentBody["packages"][number];
/** A shipment's request with every package line's quantity in base units. */
export type ShipmentInUnits = Omit<CreateShipmentBody, "packages"> & {
  packages: (Omit<PackageInput, "lines"> & {
    lines: (PackageInput["lines"][number] & { quantity: number })[];
  })[];
};

export const PackageLineRecord = z
  .object({
    orderLineId: z.uuid(),
    productId: z.uuid(),
    quantity: z.number().int(),
    lotNumber: z.string().nullable(),
    serialNumbers: z.array(z.string()).nullable(),
  })
  .openapi("PackageLine");

export const PackageRecord = z
  .object({
    id: z.uuid(),
    packageNo: z.number().int(),
    sscc: z.string().openapi({ description: "The package's SSCC-18 (GS1 Serial Shipping Container Code)." }),
    packageType: z.string().nullable(),
    weight: Weight.nullable(),
    dimensions: Dimensions.nullable(),
    trackingNumber: z.string().nullable(),
    labelFormat: z.enum(["pdf", "zpl"]).nullable(),
    lines: z.array(PackageLineRecord),
  })
  .openapi("Package");
export type PackageRecord = z.infer<typeof PackageRecord>;

export const ShipmentRecord = z
  .object({
    id: z.uuid(),
    orderId: z.uuid(),
    warehouseId: z.string().nullable(),
    // Named, so the shipment and the order events that repeat its fields share one status type in the clients.
    status: z.enum(shipmentStatuses).openapi("ShipmentStatus"),
    carrier: z.string().nullable(),
    service: z.string().nullable(),
    packages: z.array(PackageRecord),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
    dispatchedAt: z.string().nullable().openapi({ format: "date-time" }),
    cancelledAt: z.string().nullable().openapi({ format: "date-time" }),
  })
  .openapi("Shipment");
export type ShipmentRecord = z.infer<typeof ShipmentRecord>;
