import { AppError } from "./errors";

// Every text the API reads (a request body, an uploaded file's rows) is UTF-8. A decoder that replaces what is not
// with U+FFFD would store a different text than was sent, so such bytes are refused, named by their line.

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const lenient = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const encoder = new TextEncoder();
const REPLACEMENT = [0xef, 0xbf, 0xbd]; // U+FFFD sent as itself

/** `bytes` as text (a BOM at the start dropped, as `Response.text()` does), or null when they are not UTF-8. */
export function utf8Text(bytes: Uint8Array): string | null {
  try {
    return strict.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The line (1-based, CRLF, LF and CR each ending one) of the first bytes of `bytes` that are not UTF-8. The
 * lenient decoder writes them as U+FFFD: the first U+FFFD whose bytes are not EF BF BD is where they are.
 */
export function firstNonUtf8Line(bytes: Uint8Array, firstLine = 1): number {
  const text = lenient.decode(bytes);
  for (let at = text.indexOf("\uFFFD"); at !== -1; at = text.indexOf("\uFFFD", at + 1)) {
    const before = text.slice(0, at);
    const offset = encoder.encode(before).byteLength;
    if (REPLACEMENT.some((byte, i) => bytes[offset + i] !== byte)) {
      return firstLine + (before.match(/\r\n|\r|\n/g)?.length ?? 0);
    }
  }
  return firstLine;
}

/** 415 unless a Content-Type's charset, if it names one, is UTF-8. */
export function assertUtf8Charset(contentType: string): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType)?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      `Content-Type: charset=${charset} is not accepted; send UTF-8`,
      {
        errors: [`Content-Type: charset must be utf-8, not ${charset}`],
      },
    );
  }
}
