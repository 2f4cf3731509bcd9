export const scopes = [
  "read:products",
  "write:products",
  "read:inventory",
  "write:inventory",
  "read:orders",
  "write:orders",
  "billing",
  "admin",
] as const;

export type Scope = (typeof scopes)[number];

export const roles = ["owner", "admin", "manager", "operator", "viewer"] as const;
export type Role = (typeof roles)[number];

const readScopes: Scope[] = ["read:products", "read:inventory", "read:orders"];

/** What each membership role may do (README, "Authentication"). */
export const scopesByRole: Record<Role, readonly Scope[]> = {
  owner: ["admin"],
  admin: ["admin"],
  manager: [...readScopes, "write:products", "write:inventory", "write:orders"],
  operator: [...readScopes, "write:inventory", "write:orders"],
  viewer: readScopes,
};

/** `admin` implies everything; `write:X` implies `read:X`. */
export function grants(held: readonly Scope[], needed: Scope): boolean {
  if (held.includes("admin") || held.includes(needed)) return true;
  return needed.startsWith("read:") && held.includes(needed.replace("read:", "write:") as Scope);
}

/** Whether every scope in `wanted` is granted by `held` (a key cannot get more than its creator has). */
export function grantsAll(held: readonly Scope[], wanted: readonly Scope[]): boolean {
  return wanted.every((scope) => grants(held, scope));
}

/**
 * What a key's scopes are worth while its creator holds `creator`: each scope the creator grants is kept,
 * `admin` shrinks to the creator's own scopes and a `write:X` the creator lacks falls back to `read:X`
 * if the creator can read it. So a key never does more than the person accountable for it could now.
 */
export function cappedBy(key: readonly Scope[], creator: readonly Scope[]): Scope[] {
  const capped = key.flatMap((scope): readonly Scope[] => {
    if (grants(creator, scope)) return [scope];
    if (scope === "admin") return creator;
    const read = scope.replace("write:", "read:") as Scope;
    return read !== scope && grants(creator, read) ? [read] : [];
  });
  return [...new Set(capped)];
}
