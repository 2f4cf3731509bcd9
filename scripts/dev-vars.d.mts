/** Copies .dev.vars.example to .dev.vars unless the developer already has one. */
export function ensureDevVars(): void;
