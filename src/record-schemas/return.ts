import { z } from "@hono/zod-openapi";
import { returnDispositions, returnStatuses } from "../db/schema/tenant";

// A return as its own operations, the events feed and webhooks show it (src/returns), and the dispositions the
// returns report counts by (src/reports).

export const ReturnStatus = z.enum(returnStatuses).openapi("ReturnStatus");

export const ReturnDisposition = z
  .enum(returnDispositions, { error: "must be restock, quarantine or scrap" })
  .openapi("ReturnDisposition", {
    description:
      "`restock`: back at a sellable location (ledger reason `return_restock`); `quarantine`: at a non-sellable " +
      "location (`return_quarantine`); `scrap`: written off, no stock (`return_received` then `return_scrap`, at the " +
      "given location or the packing location of the warehouse the units shipped from).",
  });

export const ReturnLineRecord = z
  .object({
    id: z.uuid(),
    lineNo: z.number().int(),
    orderLineId: z.uuid(),
    productId: z.uuid(),
    quantity: z.number().int().openapi({ description: "Units authorized back." }),
    receivedQuantity: z.number().int(),
    reason: z.string(),
  })
  .openapi("ReturnLine");

export const ReturnReceiptLineRecord = z
  .object({
    returnLineId: z.uuid(),
    productId: z.uuid(),
    quantity: z.number().int(),
    disposition: ReturnDisposition,
    locationId: z.uuid(),
    warehouseId: z.uuid(),
    lotNumber: z.string().nullable(),
    serialNumbers: z.array(z.string()).nullable(),
  })
  .openapi("ReturnReceiptLine");

export const ReturnReceiptRecord = z
  .object({
    id: z.uuid(),
    createdAt: z.string().openapi({ format: "date-time" }),
    actorType: z.string(),
    actorId: z.string().nullable(),
    lines: z.array(ReturnReceiptLineRecord),
  })
  .openapi("ReturnReceipt");

const at = (description: string) => z.string().nullable().openapi({ format: "date-time", description });

export const ReturnRecord = z
  .object({
    id: z.uuid(),
    number: z.string().openapi({ example: "RMA-000001" }),
    orderId: z.uuid(),
    status: ReturnStatus,
    notes: z.string().nullable(),
    lines: z.array(ReturnLineRecord),
    receipts: z.array(ReturnReceiptRecord).openapi({ description: "Oldest first." }),
    authorizedAt: at("When it was authorized."),
    receivedAt: at("When its last authorized unit was received."),
    closedAt: at("When it was closed."),
    rejectedAt: at("When it was rejected."),
    cancelledAt: at("When it was cancelled."),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Return");

export type ReturnRecord = z.infer<typeof ReturnRecord>;
