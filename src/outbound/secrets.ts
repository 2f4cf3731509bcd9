import { fromBase64, seal, toBase64, unseal } from "../crypto/sealed-box";

// Signing secrets must be usable by the server (to sign), so they are encrypted at rest rather
// than hashed, under the WEBHOOK_SECRET_KEY secret binding (src/crypto/sealed-box.ts).

const SECRET_PREFIX = "whsec_";
const PURPOSE = "webhook-secrets";

export { toBase64 };

/** A new Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${toBase64(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/** The raw key bytes of a `whsec_` secret, as the Standard Webhooks libraries decode it. */
export function signingKeyBytes(secret: string): Uint8Array {
  return fromBase64(secret.slice(SECRET_PREFIX.length));
}

/** `base64(iv || ciphertext)` of the secret. */
export const encryptSecret = (material: string, secret: string) => seal(material, PURPOSE, secret);

export const decryptSecret = (material: string, ciphertext: string) => unseal(material, PURPOSE, ciphertext);
