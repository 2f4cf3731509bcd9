import { sql } from "drizzle-orm";
import type { TenantDb } from "../db/client";
import { stockLevels } from "../db/schema/tenant";
import { AppError } from "../http/errors";
import { atLevel, type Level } from "./statements";

/** The answers of a batch rolled back by a stock CHECK, a removal larger than what was available: `answer` for both. */
export const shortage = <T>(answer: () => T) => ({
  stock_levels_on_hand_check: answer,
  stock_levels_reserved_check: answer,
});

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
