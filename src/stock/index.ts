// The stock kernel's front door: outside src/stock, only this module and the API shapes (./schemas) are imported
// (test/layout.test.ts). The writes are the warehouse's verbs (./verbs): each gives a level's change with its
// ledger row and its serials' move, so no caller pairs them by hand; the rest is what callers read and check.

export { byStockLevel, lotsOfLine, type Reservation, type ShortLine } from "./allocation";
export { asOfInstant, lastMovementAt } from "./as-of";
export { adjustmentLine, type BatchLine, setLevelLine } from "./batch-lines";
export { keepDeletedLevels } from "./deleted-levels";
export { availableUnits, isExpired, today } from "./expiry";
export { consumeHolds, heldReservations } from "./hold-consumption";
export {
  expiredHoldsOf,
  holdStatusAt,
  inShownOrder,
  reservesStock,
  selectHolds,
  toHold,
} from "./hold-projection";
export { releaseHold, sweepExpiredHolds } from "./hold-release";
export { insufficientStock, shortage } from "./insufficient-stock";
export { KitStockLevelRecord, kitStockLevels } from "./kit-availability";
export { givenReason, type LedgerReason } from "./ledger-reasons";
export { overCeiling } from "./level-ceiling";
export { lotFilters, stockLevelPage } from "./level-pages";
export { AdjustmentBatchLine, adjustmentFields, MovementNotes, SetLevelBody } from "./line-schemas";
export { type LineRef, type LineTarget, resolveLineTargets } from "./line-targets";
export { type Drop, lowStockEvent, lowStockEvents } from "./low-stock-event";
export { release } from "./order-stock";
export { createPackingLocation, PACKING_CODE, packingLocations } from "./packing-location";
export {
  amountFields,
  type InUnits,
  inBaseUnits,
  levelsInPacks,
  linesInBaseUnits,
  oneAmountRule,
  onHandAmount,
  PackagingCode,
  type PackedAmount,
  PacksOrNone,
  packagingRows,
  packedProducts,
  packFields,
  sizesOf,
  toBaseUnits,
  withOneAmount,
} from "./packs";
export {
  available,
  levelOrder,
  levelPlace,
  levelsWithProducts,
  lotIdOf,
  selectMovements,
  withLot,
  withPlace,
} from "./projections";
export {
  planReservations,
  releaseExpiredHolds,
  reservationReads,
  reserve,
  reserveRacing,
} from "./reservations";
export { isSellable } from "./sellable";
export {
  holdsStock,
  type Level,
  type LevelChange,
  levelExists,
  levelJson,
  levelSnapshot,
  lotKey,
  movementSnapshot,
} from "./statements";
export { type LineResult, writeStockLines } from "./stock-lines";
export { assertReceivable, loadStockTargets, targetLocations } from "./targets";
export {
  assertTracking,
  type LotWanted,
  linesTrackingProblems,
  resolveLinesLots,
  resolveLots,
  type SerialUnit,
  serialsAlreadyInStock,
  serialsChanged,
  serialsOnTwoLines,
  serialsWhere,
  serialsWhereMany,
  type TrackedProduct,
  trackingProblems,
} from "./tracked-stock";
export { adjust, issue, move, moveReserved, receive, ship, statementsOf, unship } from "./verbs";
export { type ProductIds, withComponents } from "./with-components";
export {
  answerFailedStockWrite,
  plainTargetsGuard,
  resolveTrackedStock,
  type StockWriteTarget,
  uncheckedOrChecked,
  untrackedStock,
} from "./write";
