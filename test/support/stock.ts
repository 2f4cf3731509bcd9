// Moved to ./builders and ./database; kept until every test imports from there.
export { adjustStock } from "./builders";
export { type LevelCheck, levelsWithLedger } from "./database";
