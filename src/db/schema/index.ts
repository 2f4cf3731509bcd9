export * from "./catalog";
export * from "./events";
export * from "./identity";
export * from "./inventory";
export * from "./orders";
