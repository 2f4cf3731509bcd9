import { z } from "@hono/zod-openapi";
import { MAX_ON_HAND } from "../db/schema/tenant";
import { exactlyOne, onlyWith } from "../http/field-rules";
import { amountFields, PacksOrNone, packFields, withOneAmount } from "./packs";
import { LotNumber, trackedFields } from "./schemas";

// The shape of one stock line as the writes take it: a single adjustment, a line of the bulk writes and a row of the
// stock import job. Bulk lines are keyed the way ERPs key them (SKU and location code) or by id.

/** An adjustment's packs, signed like its quantity. */
const SignedPacks = z
  .number({ error: "must be an integer" })
  .int("must be an integer")
  .min(-1_000_000_000, "must be between -1000000000 and 1000000000")
  .max(1_000_000_000, "must be between -1000000000 and 1000000000")
  .refine((q) => q !== 0, "must not be zero")
  .openapi({ not: { const: 0 }, description: "Signed like quantity: negative packs remove stock." });

/** A ledger row's notes, as a write gives them. */
export const MovementNotes = z.string().trim().max(1000).optional();

/** An adjustment's quantity: signed, never zero. */
const SignedQuantity = z
  .number({ error: "must be an integer" })
  .int("must be an integer")
  .min(-1_000_000_000, "must be between -1000000000 and 1000000000")
  .max(1_000_000_000, "must be between -1000000000 and 1000000000")
  .refine((q) => q !== 0, "must not be zero")
  .openapi({
    not: { const: 0 },
    description: `Signed: positive adds stock, negative removes it. A stock level holds at most ${MAX_ON_HAND} units; an addition past that is a 409.`,
    example: -3,
  });

/** What an adjustment changes, alone or as a line: its signed quantity (or packs), its reason and notes. */
export const adjustmentFields = {
  ...amountFields(SignedQuantity, SignedPacks),
  reason: z
    .string()
    .trim()
    .min(1, "Reason is required")
    .max(64, "must be at most 64 characters")
    .openapi({ example: "cycle_count" }),
  notes: MovementNotes,
};

const code = (what: string) =>
  z.string().trim().min(1, "must not be empty").max(64).openapi({ description: what });

/** How a line names its product (SKU or id) and location (code or id; a code used in several warehouses needs the warehouse's). */
const placeFields = {
  sku: z.string().trim().min(1, "must not be empty").max(64).optional().openapi({ example: "WID-001" }),
  productId: z.uuid("must be a UUID (the product's id)").optional(),
  locationCode: code("The location's code (with `warehouseCode` when several warehouses use it).")
    .optional()
    .openapi({ example: "A-01-01" }),
  locationId: z.uuid("must be a UUID (the location's id)").optional(),
  warehouseCode: code(
    "The warehouse of `locationCode`, when several warehouses have a location of that code.",
  ).optional(),
};

/** Exactly one of sku and productId, one of locationCode and locationId; warehouseCode only with locationCode. */
const placeRules = [
  exactlyOne("sku", "productId"),
  exactlyOne("locationCode", "locationId"),
  onlyWith("warehouseCode", "locationCode"),
];

export const AdjustmentBatchLine = withOneAmount(
  z.strictObject({
    ...placeFields,
    ...adjustmentFields,
    ...trackedFields,
  }),
  {},
  ...placeRules,
).openapi("AdjustmentBatchLine");

const units = (description: string) =>
  z
    .number({ error: "must be an integer" })
    .int("must be an integer")
    .min(0, "must not be negative")
    .max(MAX_ON_HAND, `must be at most ${MAX_ON_HAND}`)
    .openapi({ description });

const levelFields = {
  ...placeFields,
  lotNumber: LotNumber.optional().openapi({
    description: "Required for lot-tracked products; a new number creates the lot (when onHand > 0).",
  }),
  onHand: units("The on hand to set; the difference becomes one ledger row (reason `set`).").optional(),
  ...packFields("onHand", PacksOrNone),
  expectedOnHand: units(
    "Compare-and-swap: set only while on hand is exactly this (0 for a level never stocked); otherwise 409 with " +
      "the current value, and nothing changes.",
  ).optional(),
};

export const SetLevelBody = withOneAmount(
  z.strictObject(levelFields),
  { field: "onHand" },
  ...placeRules,
).openapi("SetStockLevelRequest");
export type SetLevelBody = z.infer<typeof SetLevelBody>;
