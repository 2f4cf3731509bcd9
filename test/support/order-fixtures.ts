// Moved to ./builders and ./database; kept until every test imports from there.
import { seedLocation as seedBin, type TestTenant } from "./builders";

export { address, salesOrder, seedProduct, seedWarehouse, setStatus, stockedProduct } from "./builders";
export { openReservations, outboxTypes, stockOf } from "./database";

/** The location's id (./builders' seedLocation returns the location). */
export const seedLocation = async (tenant: TestTenant, warehouseId: string) =>
  (await seedBin(tenant, warehouseId)).id;
