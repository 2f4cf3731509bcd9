import { z } from "@hono/zod-openapi";
import { shipmentStatuses } from "../db/schema/tenant";
import { pageQuery } from "../http/pagination";
import { IdParam } from "../http/params";
import { MAX_PACKAGES } from "../shipment-core/schemas";

export const ListShipmentsQuery = pageQuery.extend({
  status: z.enum(shipmentStatuses, { error: `must be one of ${shipmentStatuses.join(", ")}` }).optional(),
  carrier: z.string().trim().min(1).max(64).optional(),
  since: z.iso
    .datetime({ offset: true, error: "must be an ISO 8601 timestamp" })
    .optional()
    .openapi({ description: "Shipments created at or after this instant (incremental sync)." }),
});
export type ListShipmentsQuery = z.infer<typeof ListShipmentsQuery>;

export const LabelBody = z
  .strictObject({
    trackingNumbers: z
      .array(
        z.strictObject({
          packageId: z.uuid("must be a UUID (a package of this shipment)"),
          trackingNumber: z
            .string({ error: "must be a string" })
            .trim()
            .min(1, "must not be empty")
            .max(64, "must be at most 64 characters"),
        }),
        { error: "must be a list of {packageId, trackingNumber}" },
      )
      .max(MAX_PACKAGES, `must name at most ${MAX_PACKAGES} packages`)
      .refine(
        (list) => new Set(list.map((t) => t.packageId)).size === list.length,
        "must not name a package twice",
      )
      .optional()
      .openapi({
        description:
          "The manual carrier's tracking number per package (every package needs one). Not sent for a carrier with a label service, which assigns them.",
      }),
  })
  .openapi("LabelShipmentRequest");
export type LabelBody = z.infer<typeof LabelBody>;

export const PackageParams = z.object({
  id: IdParam.shape.id,
  packageId: z
    .uuid("must be a UUID")
    .openapi({ param: { name: "packageId", in: "path" }, example: "0193a5c1-6f2e-7c4a-9b1d-3e5f7a9c2b4e" }),
});
