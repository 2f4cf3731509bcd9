// Moved to ./builders; kept until every test imports from there.
export { loginHeaders, newMember, scopedKey, userWithRole } from "./builders";
