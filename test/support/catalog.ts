// Moved to ./builders; kept until every test imports from there.
export { type Creator, createLocation, createProduct, createWarehouse } from "./builders";
