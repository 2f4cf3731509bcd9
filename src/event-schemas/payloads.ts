import { z } from "@hono/zod-openapi";
import { OrderRecord, ReceiptLine } from "../order-core/schemas";
import type { EventType } from "../outbox/catalog";
import { CountRecord } from "../record-schemas/count";
import { InvoiceRecord } from "../record-schemas/invoice";
import { JobRecord } from "../record-schemas/job";
import { PickListRecord } from "../record-schemas/pick-list";
import { ProductRecord } from "../record-schemas/product";
import { ReturnRecord } from "../record-schemas/return";
import { PackageRecord, ShipmentRecord } from "../shipment-core/schemas";
import { HoldRecord } from "../stock/schemas";

// Only API shapes of the resources these events carry: the feed and the webhooks show them as their own operations do.
// The `data` of each event of the catalogue (src/outbox/catalog.ts), as the feed serves it and a webhook
// delivers it. Events that carry a resource reuse that resource's API shape; an order or a shipment with more fields
// extends the registered `Order` or `Shipment` (the document's `allOf` of its `$ref` and the fields added), so every
// generated client has one order and one shipment model, which the events' models derive from. The others are
// payloads built as SQL inside their write batch.

/** A stock level as a movement event shows it (`levelJson` in src/stock/statements.ts). */
const EventStockLevel = z
  .object({
    locationId: z.uuid(),
    warehouseId: z.uuid(),
    lotId: z.uuid().nullable(),
    lotNumber: z.string().nullable(),
    onHand: z.number().int(),
    reserved: z.number().int(),
    available: z.number().int(),
  })
  .openapi("EventStockLevel", { description: "The stock level right after the movement committed." });

const movedStock = {
  productId: z.uuid(),
  lotNumber: z.string().nullable(),
  serialNumbers: z.array(z.string()).nullable(),
};

/** src/inventory/adjustments.ts */
const InventoryAdjustedData = z
  .object({
    movementId: z.uuid(),
    ...movedStock,
    delta: z.number().int().openapi({ description: "Signed: positive added stock, negative removed it." }),
    reason: z.string(),
    stockLevel: EventStockLevel,
  })
  .openapi("InventoryAdjustedData");

/** src/inventory/transfers.ts */
const InventoryTransferredData = z
  .object({
    transferId: z.uuid(),
    ...movedStock,
    quantity: z.number().int(),
    from: EventStockLevel,
    to: EventStockLevel,
  })
  .openapi("InventoryTransferredData");

/** src/stock/low-stock-event.ts: the product's totals over all its locations when available crossed its reorder point. */
const InventoryLowStockData = z
  .object({
    productId: z.uuid(),
    sku: z.string(),
    name: z.string(),
    reorderPoint: z.number().int(),
    onHand: z.number().int(),
    reserved: z.number().int(),
    expired: z.number().int().openapi({ description: "Units on hand in expired lots (not available)." }),
    available: z.number().int(),
  })
  .openapi("InventoryLowStockData");

/** src/counts/approved-event.ts */
const InventoryCountApprovedData = z
  .object({
    ...CountRecord.shape,
    linesIncluded: z.enum(["all", "changed"]).openapi({
      description:
        "`all`: every line; `changed`: only the lines whose approval changed stock (the count was too large).",
    }),
    hasMoreLines: z.boolean().openapi({
      description: "Some lines were left out to keep the event small: GET the count for all of them.",
    }),
  })
  .openapi("InventoryCountApprovedData");

/** src/stock/hold-release.ts */
const InventoryHoldReleasedData = z
  .object({
    ...HoldRecord.shape,
    reason: z.enum(["released", "expired", "consumed"]),
  })
  .openapi("InventoryHoldReleasedData");

/** src/orders/receive.ts: the order after the receipt, and the receipt's lines as sent, with their product and lot. */
const PurchaseOrderReceivedData = OrderRecord.extend({
  receipt: z.array(
    ReceiptLine.extend({
      productId: z.uuid(),
      lotId: z.uuid().optional().openapi({ description: "The lot received into (lot-tracked products)." }),
    }),
  ),
}).openapi("PurchaseOrderReceivedData");

/** src/pick-lists/record-short.ts: the order after a short, and what was backordered. */
const OrderBackorderedData = OrderRecord.extend({
  backorder: z.object({
    pickListId: z.uuid(),
    pickListLineId: z.uuid(),
    orderLineId: z.uuid(),
    quantity: z.number().int().openapi({ description: "Units that will not ship on this order." }),
    reason: z.string(),
  }),
}).openapi("OrderBackorderedData");

// src/shipment-core/records.ts: an order event from shipping carries the order's shipments, packages without
// their contents (`shipmentInOrderEvent`); `shipment.dispatched` the shipment with every tracking number.
const { lines: _contents, ...packageShape } = PackageRecord.shape;
const { packages: _packages, ...shipmentShape } = ShipmentRecord.shape;
const OrderEventShipment = z
  .object({ ...shipmentShape, packages: z.array(z.object(packageShape)) })
  .openapi("OrderEventShipment");
const shipments = z.array(OrderEventShipment).openapi({
  description: "The order's shipments (packages without their contents), when a shipment made the change.",
});

/** `order.status_changed` and `order.shipped`: the order, with its shipments when shipping changed it. */
const OrderChangedData = OrderRecord.extend({ shipments: shipments.optional() }).openapi("OrderChangedData");

/** src/shipment-core/create-shipment.ts */
const OrderPartiallyShippedData = OrderRecord.extend({ shipments }).openapi("OrderPartiallyShippedData");

const ShipmentDispatchedData = ShipmentRecord.extend({ trackingNumbers: z.array(z.string()) }).openapi(
  "ShipmentDispatchedData",
);

/** src/webhooks/test-webhook.ts */
const WebhookTestData = z.object({ webhookId: z.uuid(), message: z.string() }).openapi("WebhookTestData");

/** Every event type's `data`: the compiler refuses a catalogue type without one. */
export const eventPayloads = {
  "order.created": OrderRecord,
  "order.status_changed": OrderChangedData,
  "order.shipped": OrderChangedData,
  "order.partially_shipped": OrderPartiallyShippedData,
  "shipment.dispatched": ShipmentDispatchedData,
  "shipment.cancelled": ShipmentRecord,
  "return.created": ReturnRecord,
  "return.received": ReturnRecord,
  "return.closed": ReturnRecord,
  "order.delivered": OrderRecord,
  "order.cancelled": OrderRecord,
  "order.backordered": OrderBackorderedData,
  "pick_list.created": PickListRecord,
  "pick_list.completed": PickListRecord,
  "pick_list.cancelled": PickListRecord,
  "purchase_order.received": PurchaseOrderReceivedData,
  "inventory.adjusted": InventoryAdjustedData,
  "inventory.transferred": InventoryTransferredData,
  "inventory.low_stock": InventoryLowStockData,
  "inventory.count_approved": InventoryCountApprovedData,
  "inventory.hold_created": HoldRecord,
  "inventory.hold_released": InventoryHoldReleasedData,
  "product.created": ProductRecord,
  "product.updated": ProductRecord,
  "product.deleted": ProductRecord,
  "job.succeeded": JobRecord,
  "job.failed": JobRecord,
  "invoice.created": InvoiceRecord,
  "invoice.voided": InvoiceRecord,
  "webhook.test": WebhookTestData,
} as const satisfies Record<EventType, z.ZodType>;

/** `order.status_changed` -> `OrderStatusChanged`: the stem of an event type's schema names. */
export const schemaStem = (type: EventType) =>
  type.replace(/(^|[._])(\w)/g, (_, _separator, letter: string) => letter.toUpperCase());
