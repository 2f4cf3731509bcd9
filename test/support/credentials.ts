// Moved to ./builders; kept until every test imports from there.
export { loginHeaders, scopedKey, userWithRole } from "./builders";
