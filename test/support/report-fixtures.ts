// Moved to ./builders and ./csv; kept until every test imports from there.
export {
  type MovementSeed,
  type ProductSeed,
  seedLevel,
  seedLocation,
  seedManyMovements,
  seedMovement,
  seedProduct,
  seedStockedProducts,
  seedWarehouse,
} from "./builders";
export { asCsvCells, csvObjects, parseCsv } from "./csv";
