import type { TenantDb } from "../db/client";
import { selectSettings, settingsRecord } from "./records";

export async function readSettings(tdb: TenantDb) {
  const [row] = await selectSettings(tdb);
  return settingsRecord(row);
}
