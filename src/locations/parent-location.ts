import type { TenantDb } from "../db/client";
import { AppError } from "../http/errors";
import { findLocation } from "./read-location";

/** A parent must be another location of the same warehouse. */
export async function assertParent(
  tdb: TenantDb,
  parentId: string | null | undefined,
  warehouseId: string,
  selfId?: string,
) {
  if (!parentId) return;
  const parent = await findLocation(tdb, parentId);
  if (!parent || parent.warehouseId !== warehouseId || parent.id === selfId) {
    throw new AppError("VALIDATION_FAILED", "Validation failed", {
      errors: ["parentId: must be another location of the same warehouse"],
    });
  }
}
