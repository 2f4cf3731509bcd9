// Signing secrets must be usable by the server (to sign), so they are encrypted at rest rather
// than hashed: AES-GCM with a key derived from the WEBHOOK_SECRET_KEY secret binding.

const encoder = new TextEncoder();
const SECRET_PREFIX = "whsec_";

export const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

/** A new Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${toBase64(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/** The raw key bytes of a `whsec_` secret, as the Standard Webhooks libraries decode it. */
export function signingKeyBytes(secret: string): Uint8Array {
  return fromBase64(secret.slice(SECRET_PREFIX.length));
}

const keyCache = new Map<string, Promise<CryptoKey>>();
function encryptionKey(material: string): Promise<CryptoKey> {
  let key = keyCache.get(material);
  if (!key) {
    key = crypto.subtle
      .digest("SHA-256", encoder.encode(`webhook-secrets:${material}`))
      .then((digest) => crypto.subtle.importKey("raw", digest, "AES-GCM", false, ["encrypt", "decrypt"]));
    keyCache.set(material, key);
  }
  return key;
}

/** `base64(iv || ciphertext)` of the secret. */
export async function encryptSecret(material: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await encryptionKey(material),
    encoder.encode(secret),
  );
  return toBase64(new Uint8Array([...iv, ...new Uint8Array(sealed)]));
}

export async function decryptSecret(material: string, ciphertext: string): Promise<string> {
  const bytes = fromBase64(ciphertext);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes.slice(0, 12) },
    await encryptionKey(material),
    bytes.slice(12),
  );
  return new TextDecoder().decode(plain);
}
