import { and } from "drizzle-orm";
import { inJsonArray } from "../db/batch";
import type { TenantDb } from "../db/client";
import { MAX_ON_HAND, stockLevels } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { conflict } from "../http/errors";
import type { Level } from "./statements";

/** An addition of a batch that the ceiling may have refused, and the request field it came from. */
export interface Addition extends Level {
  quantity: number;
  field: string;
}

/**
 * The answer to a batch rolled back by the ceiling CHECK (`stock_levels_on_hand_max_check`), an addition past
 * MAX_ON_HAND units: 409 naming the first addition that takes its level past the ceiling, with what that level
 * holds now.
 */
export async function overCeiling(tdb: TenantDb, additions: readonly Addition[]) {
  const levels = await tdb.db
    .select({
      productId: stockLevels.productId,
      locationId: stockLevels.locationId,
      onHand: stockLevels.onHand,
    })
    .from(stockLevels)
    .where(
      inTenant(
        tdb,
        stockLevels,
        and(
          inJsonArray(
            stockLevels.productId,
            additions.map((a) => a.productId),
          ),
          inJsonArray(
            stockLevels.locationId,
            additions.map((a) => a.locationId),
          ),
        ),
      ),
    );
  const holds = new Map(levels.map((l) => [`${l.productId}/${l.locationId}`, l.onHand]));
  const full = additions.find((a) => {
    const key = `${a.productId}/${a.locationId}`;
    const after = (holds.get(key) ?? 0) + a.quantity;
    holds.set(key, after);
    return after > MAX_ON_HAND;
  });
  const limit = `a stock level holds at most ${MAX_ON_HAND} units`;
  if (!full) return conflict("Stock level full", [limit]); // another request emptied it since
  const held = (holds.get(`${full.productId}/${full.locationId}`) ?? 0) - full.quantity;
  return conflict("Stock level full", [`${full.field}: ${limit}; this location holds ${held}`]);
}
