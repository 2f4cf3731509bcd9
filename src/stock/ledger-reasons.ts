// Why stock moved, as the ledger stores it (stock_movements.reason). The kernel's own writes name one of these;
// an adjustment stores the reason its caller gave, as given. Billing and reports filter on the stored strings, so
// a reason here is never renamed.

/** The reasons the stock writes name themselves. */
export const LEDGER_REASONS = [
  /** A purchase order's receipt. */
  "received",
  /** Both sides of a transfer between locations. */
  "transfer",
  /** Both sides of a pick: the bin and the packing location. */
  "pick",
  /** Units leaving on a shipment. */
  "shipment",
  /** Units leaving on an order's status update to shipped (before shipments existed). */
  "shipped",
  /** A cancelled shipment's units back at the packing location. */
  "shipment_cancelled",
  /** A count's approved variance. */
  "cycle_count",
  /** A level set to an absolute on hand. */
  "set",
  /** A stock import's adjustment that gave no reason of its own. */
  "import",
  /** A return's units back at a sellable location. */
  "return_restock",
  /** A return's units at a non-sellable location. */
  "return_quarantine",
  /** A scrapped return's units arriving, before they are written off. */
  "return_received",
  /** A scrapped return's units written off. */
  "return_scrap",
] as const;

export type LedgerReason = (typeof LEDGER_REASONS)[number];

declare const given: unique symbol;

/** An adjustment's reason, as its caller gave it (free text, stored as given). */
export type GivenReason = string & { readonly [given]: true };

/** The reason a caller gave an adjustment, stored as given. */
export const givenReason = (text: string) => text as GivenReason;

/** Every ledger row's reason: one of the catalogue's, or an adjustment's own. */
export type MovementReason = LedgerReason | GivenReason;
