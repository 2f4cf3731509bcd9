// Moved to ./builders; kept until every test imports from there.
export { createTenant, PLATFORM, type TestTenant } from "./builders";
