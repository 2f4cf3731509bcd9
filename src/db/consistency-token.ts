import { AppError } from "../http/errors";

/**
 * `Consistency-Token`: the D1 session bookmark a tenant response was read or written at, with the shard
 * it belongs to, base64url-encoded (opaque to clients). Sent back, it lets any replica at least that
 * fresh serve the next request (docs/decisions/scale-out.md).
 */
export interface ConsistencyToken {
  shard: string;
  bookmark: string;
}

const TOKEN = /^[A-Za-z0-9_-]{1,200}$/;
const DECODED = /^(SHARD_\d+)\.([0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32})$/;

const base64url = (text: string) => btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

export function encodeConsistencyToken({ shard, bookmark }: ConsistencyToken): string {
  return base64url(`${shard}.${bookmark}`);
}

/** The token a request sent, undefined without one; a malformed one is a 400. */
export function decodeConsistencyToken(header: string | undefined): ConsistencyToken | undefined {
  if (header === undefined) return undefined;
  const token = header.trim();
  let decoded = "";
  try {
    if (TOKEN.test(token)) decoded = atob(token.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {}
  const match = DECODED.exec(decoded);
  if (!match?.[1] || !match[2]) {
    throw new AppError("BAD_REQUEST", "Consistency-Token is malformed: send back a token this API returned", {
      errors: ["Consistency-Token: is not a token this API returned"],
    });
  }
  return { shard: match[1], bookmark: match[2] };
}
