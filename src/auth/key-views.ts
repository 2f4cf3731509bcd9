import { sha256Hex } from "../crypto/hashing";
import { AppError } from "../http/errors";
import type { Principal } from "./principal";

type KeyPrincipal = Extract<Principal, { type: "api_key" }>;

/**
 * What each API key's last successful lookup in this isolate said (tenant, plan, status, shard, effective
 * scopes), by key hash. A read starts on it while this request's own lookup runs alongside
 * (docs/decisions/scale-out.md): it is a guess about where and as whom to read, never an access decision.
 */
const lastSeen = new Map<string, KeyPrincipal>();
const MAX_KEYS = 10_000;

/**
 * Each presented key's SHA-256, so a key the isolate has seen is not hashed again on every request. Held in
 * the isolate's memory only, as the request that carried the key was; bounded like the views.
 */
const hashes = new Map<string, string>();

export async function keyHashOf(key: string): Promise<string> {
  const known = hashes.get(key);
  if (known) return known;
  const hash = await sha256Hex(key);
  if (hashes.size >= MAX_KEYS) hashes.delete(hashes.keys().next().value as string);
  hashes.set(key, hash);
  return hash;
}

export function rememberedKey(keyHash: string): KeyPrincipal | undefined {
  return lastSeen.get(keyHash);
}

export function rememberKey(keyHash: string, principal: KeyPrincipal): void {
  lastSeen.delete(keyHash);
  lastSeen.set(keyHash, principal);
  // A Map iterates in insertion order: the first key is the one used longest ago.
  if (lastSeen.size > MAX_KEYS) lastSeen.delete(lastSeen.keys().next().value as string);
}

export function forgetKey(keyHash: string): void {
  lastSeen.delete(keyHash);
}

/** Whether the request's lookup found what the read assumed (any difference: serve the request again). */
export function sameView(a: KeyPrincipal, b: KeyPrincipal): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A request's use of the remembered views: whether this run may read on one (not on the request's second
 * run), whether the key's lookup contradicted the view it read on (src/pipeline/serve-again.ts), and, for a
 * write that started on one, whether the lookup confirmed it (awaited before the write's first statement).
 */
export interface KeyView {
  mayGuess: boolean;
  contradicted: boolean;
  confirmation?: Promise<boolean>;
}

/**
 * A write's gate: resolves once the key's lookup, which ran alongside the write's reads, confirmed the view they
 * ran on (at once when the request waited for its lookup). Otherwise it stops the run before anything is written,
 * and the request is served again on its own lookup: this error's answer is discarded, never sent.
 */
export async function confirmedKeyView(view: KeyView): Promise<void> {
  if (view.confirmation && !(await view.confirmation))
    throw new AppError("UNAUTHORIZED", "The API key's lookup did not confirm its remembered view");
}
