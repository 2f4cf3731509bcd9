// The workload's operation kinds, one small module each; a new feature adds its module here.

import { createProduct, importProducts, updateProduct } from "./products.mjs";
import { purchase } from "./purchase.mjs";
import { read, report } from "./reads.mjs";
import { advanceSalesOrder, createSalesOrder } from "./sales.mjs";
import { adjust, transfer } from "./stock.mjs";

export const OPERATIONS = [
  read,
  report,
  adjust,
  transfer,
  createProduct,
  updateProduct,
  importProducts,
  createSalesOrder,
  advanceSalesOrder,
  purchase,
];
