const encoder = new TextEncoder();

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(value: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", encoder.encode(value)));
}

/** Compares two secrets in constant time (hashing first makes the lengths equal). */
export async function secretsEqual(a: string, b: string): Promise<boolean> {
  const [ha, hb] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(a)),
    crypto.subtle.digest("SHA-256", encoder.encode(b)),
  ]);
  return crypto.subtle.timingSafeEqual(ha, hb);
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A random token of `length` base62 characters (about 5.95 bits each). */
export function randomToken(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
  let out = "";
  for (const byte of bytes) {
    // Rejection sampling keeps every character equally likely.
    if (byte < 248) out += BASE62[byte % 62];
    if (out.length === length) return out;
  }
  return out + randomToken(length - out.length);
}

/**
 * A one-time secret for a link or a session: `prefix` and 48 base62 characters (about 285 bits, so it
 * cannot be guessed and needs no throttling), with the SHA-256 that is all the database keeps.
 */
export async function oneTimeToken(prefix: string): Promise<{ token: string; tokenHash: string }> {
  const token = `${prefix}${randomToken(48)}`;
  return { token, tokenHash: await sha256Hex(token) };
}
