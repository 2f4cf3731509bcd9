import { signingKeyBytes, toBase64 } from "./secrets";

/**
 * Standard Webhooks signature: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. With several
 * secrets (during a rotation) the header carries one signature per secret, space-separated.
 */
export async function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const content = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  const signatures = await Promise.all(
    secrets.map(async (secret) => {
      const key = await crypto.subtle.importKey(
        "raw",
        signingKeyBytes(secret),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      return `v1,${toBase64(new Uint8Array(await crypto.subtle.sign("HMAC", key, content)))}`;
    }),
  );
  return signatures.join(" ");
}
