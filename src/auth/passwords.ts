import { toHex } from "../crypto/hashing";

// The production Workers runtime refuses PBKDF2 above 100,000 iterations.
export const PASSWORD_ITERATIONS = 100_000;

export interface PasswordHash {
  hash: string;
  salt: string;
  iterations: number;
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    key,
    256,
  );
  return toHex(bits);
}

function fromHex(hex: string): Uint8Array {
  return new Uint8Array((hex.match(/../g) ?? []).map((byte) => Number.parseInt(byte, 16)));
}

export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return {
    hash: await derive(password, salt, PASSWORD_ITERATIONS),
    salt: toHex(salt),
    iterations: PASSWORD_ITERATIONS,
  };
}

export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const candidate = fromHex(await derive(password, fromHex(stored.salt), stored.iterations));
  const expected = fromHex(stored.hash);
  return candidate.length === expected.length && crypto.subtle.timingSafeEqual(candidate, expected);
}

// Verified against when the email is unknown, so both failures cost the same time.
const DUMMY: PasswordHash = {
  hash: "0".repeat(64),
  salt: "00000000000000000000000000000000",
  iterations: PASSWORD_ITERATIONS,
};

export async function burnPasswordCheck(password: string): Promise<false> {
  await verifyPassword(password, DUMMY);
  return false;
}
