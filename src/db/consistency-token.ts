import { seal, unseal } from "../crypto/sealed-box";
import { AppError } from "../http/errors";

/**
 * `Consistency-Token`: the D1 session bookmark a tenant response was read or written at, with the shard it
 * belongs to. Sent back, it lets any replica at least that fresh serve the next request
 * (docs/decisions/scale-out.md). A bookmark counts the shard's commits, every tenant's, so clients get it
 * sealed (AES-GCM under a server key, bound to the tenant): they can neither read it, nor forge or alter it,
 * nor use another tenant's.
 */
export interface ConsistencyToken {
  shard: string;
  bookmark: string;
}

const PURPOSE = "consistency-tokens";
const TOKEN = /^[A-Za-z0-9_-]{1,300}$/;
// Padded to one length, so that a token's length does not tell shards apart.
const SEALED_LENGTH = 80;
// Tokens issued before they were sealed (base64url of `<shard>.<bookmark>`): read as no token, so a client
// holding one gets a sealed token with its next answer instead of a 400 it could not get out of.
const UNSEALED = /^U0hBUkRf[A-Za-z0-9_-]+$/; // "SHARD_"

const toBase64url = (base64: string) => base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
const fromBase64url = (token: string) => token.replaceAll("-", "+").replaceAll("_", "/");

/** The token a response carries: `{shard, bookmark}` sealed for `tenantId` under the server's `key`. */
export async function sealConsistencyToken(
  key: string,
  tenantId: string,
  { shard, bookmark }: ConsistencyToken,
): Promise<string> {
  return toBase64url(await seal(key, PURPOSE, `${shard}.${bookmark}`.padEnd(SEALED_LENGTH), tenantId));
}

const malformed = () =>
  new AppError("BAD_REQUEST", "Consistency-Token is malformed: send back a token this API returned", {
    errors: ["Consistency-Token: is not a token this API returned for this tenant"],
  });

/**
 * The token a request sent for `tenantId`, undefined without one. One that is malformed, altered, or sealed for
 * another tenant is a 400, the same for each, so a refusal says nothing about whose it was.
 */
export async function openConsistencyToken(
  key: string,
  tenantId: string,
  header: string | undefined,
): Promise<ConsistencyToken | undefined> {
  if (header === undefined) return undefined;
  const token = header.trim();
  if (!TOKEN.test(token)) throw malformed();
  if (UNSEALED.test(token)) return undefined;
  let text: string;
  try {
    // Only this server seals, so a token that opens holds what sealConsistencyToken put in.
    text = (await unseal(key, PURPOSE, fromBase64url(token), tenantId)).trimEnd();
  } catch {
    throw malformed();
  }
  const dot = text.indexOf(".");
  return { shard: text.slice(0, dot), bookmark: text.slice(dot + 1) };
}
