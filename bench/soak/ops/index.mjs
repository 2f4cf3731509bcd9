// The workload's operation kinds, one small module each; a new feature adds its module here. An operation with
// `applies(t)` runs only for the tenants it answers true for.

import { burst } from "./burst.mjs";
import { readEvents } from "./feed.mjs";
import { holdAndExpire, holdAndOrder, holdAndRelease } from "./holds.mjs";
import { adjustLot, transferLot } from "./lots.mjs";
import { createProduct, importProducts, updateProduct } from "./products.mjs";
import { purchase } from "./purchase.mjs";
import { read, report } from "./reads.mjs";
import { advanceSalesOrder, createSalesOrder } from "./sales.mjs";
import { adjust, transfer } from "./stock.mjs";

const OPERATIONS = [
  read,
  report,
  adjust,
  transfer,
  adjustLot,
  transferLot,
  createProduct,
  updateProduct,
  importProducts,
  createSalesOrder,
  advanceSalesOrder,
  purchase,
  holdAndRelease,
  holdAndOrder,
  holdAndExpire,
  readEvents,
  burst,
];

/** The operations tenant `t` runs. */
export const operationsFor = (t) => OPERATIONS.filter((op) => op.applies?.(t) ?? true);
