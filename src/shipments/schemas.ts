import { z } from "@hono/zod-openapi";
import { shipmentStatuses } from "../db/schema/tenant";
import { pageQuery } from "../http/pagination";

export const ListShipmentsQuery = pageQuery.extend({
  status: z.enum(shipmentStatuses, { error: `must be one of ${shipmentStatuses.join(", ")}` }).optional(),
  carrier: z.string().trim().min(1).max(64).optional(),
  since: z.iso
    .datetime({ offset: true, error: "must be an ISO 8601 timestamp" })
    .optional()
    .openapi({ description: "Shipments created at or after this instant (incremental sync)." }),
});
export type ListShipmentsQuery = z.infer<typeof ListShipmentsQuery>;
