import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

// Sellable locations (docs/decisions/returns.md): stock at a non-sellable location (quarantine) counts in on
// hand but is never available, reserved, allocated or picked. Reads ask `isSellable` of a level's location;
// the trigger `stock_levels_reserve_sellable` (migration 0010) refuses any reservation there under any race.

/** Whether the location of a level (its `location_id` column) is sellable: a primary-key probe. */
export const isSellable = (locationId: SQLiteColumn | SQL): SQL =>
  sql`coalesce((select sellable_location.sellable from locations sellable_location where sellable_location.id = ${locationId}), 1)`;

/** What a level can still give: on hand minus reserved at a sellable location, else nothing. */
export const sellableUnits = (level: {
  onHand: SQLiteColumn | SQL;
  reserved: SQLiteColumn | SQL;
  locationId: SQLiteColumn | SQL;
}): SQL => sql`case when ${isSellable(level.locationId)} then ${level.onHand} - ${level.reserved} else 0 end`;
