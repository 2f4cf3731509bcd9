// Data the server must read back but nobody else may (webhook signing secrets, stored idempotent
// responses that carry secrets, the Consistency-Token clients hold) is sealed: AES-GCM with a key derived
// from a secret binding and the data's purpose, so one purpose's ciphertext never opens as another's.
// `boundTo` (GCM's associated data) ties a ciphertext to a context, such as a tenant: it opens in no other.

const encoder = new TextEncoder();

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  // In slices: spreading a large response into one call would overflow the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

export const fromBase64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

export type SealPurpose = "webhook-secrets" | "idempotent-responses" | "consistency-tokens";

// The isolate's requests share derived keys, never the promise of one: a request may await only what it
// started itself (docs/decisions/rate-limits.md). Two requests deriving the same key at once both do it.
const keyCache = new Map<string, CryptoKey>();
async function sealingKey(material: string, purpose: SealPurpose): Promise<CryptoKey> {
  const name = `${purpose}:${material}`;
  const cached = keyCache.get(name);
  if (cached) return cached;
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(name));
  const key = await crypto.subtle.importKey("raw", digest, "AES-GCM", false, ["encrypt", "decrypt"]);
  keyCache.set(name, key);
  return key;
}

const gcm = (iv: Uint8Array, boundTo: string | undefined) =>
  boundTo === undefined
    ? { name: "AES-GCM", iv }
    : { name: "AES-GCM", iv, additionalData: encoder.encode(boundTo) };

/** `base64(iv || ciphertext)` of `text`. */
export async function seal(
  material: string,
  purpose: SealPurpose,
  text: string,
  boundTo?: string,
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    gcm(iv, boundTo),
    await sealingKey(material, purpose),
    encoder.encode(text),
  );
  const out = new Uint8Array(12 + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), 12);
  return toBase64(out);
}

/** The text `seal` sealed; throws unless `sealed` is intact and was sealed for this purpose and `boundTo`. */
export async function unseal(
  material: string,
  purpose: SealPurpose,
  sealed: string,
  boundTo?: string,
): Promise<string> {
  const bytes = fromBase64(sealed);
  const plain = await crypto.subtle.decrypt(
    gcm(bytes.subarray(0, 12), boundTo),
    await sealingKey(material, purpose),
    bytes.subarray(12),
  );
  return new TextDecoder().decode(plain);
}
