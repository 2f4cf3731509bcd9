import { sql } from "drizzle-orm";
import { violated } from "../db/batch";
import type { TenantDb } from "../db/client";
import { stockLevels } from "../db/schema/tenant";
import { AppError } from "../http/errors";
import { atLevel, type Level } from "./statements";

/** Whether a failed batch was rolled back by a stock CHECK: a removal larger than what was available. */
export function isStockShortage(error: unknown): boolean {
  return violated(error, "stock_levels_on_hand_check") || violated(error, "stock_levels_reserved_check");
}

/** 409 stating what is available now at the level. */
export async function insufficientStock(tdb: TenantDb, level: Level, requested: number, field: string) {
  const [row] = await tdb.db
    .select({ available: sql<number>`${stockLevels.onHand} - ${stockLevels.reserved}` })
    .from(stockLevels)
    .where(atLevel(tdb, level));
  const available = row?.available ?? 0;
  const message = `Insufficient stock: requested ${requested}, available ${available}`;
  return new AppError("CONFLICT", message, { errors: [`${field}: ${message}`] });
}
