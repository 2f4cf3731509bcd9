import type { TenantDb } from "../db/client";
import { pickListRecord, readPickList } from "./records";

export async function getPickList(tdb: TenantDb, id: string) {
  const { row, lines } = await readPickList(tdb, id);
  return pickListRecord(row, lines);
}
