import { z } from "@hono/zod-openapi";
import { uuidv7 } from "uuidv7";
import { fromBase64 } from "../../crypto/sealed-box";
import { AppError } from "../../http/errors";
import { validationError } from "../../http/validation";
import { failureOf, signedPost } from "../../outbound/signed-post";
import { assertDeliverableUrl, type Resolver } from "../../outbound/url-guard";
import type { CarrierAdapter, LabelRequest, PackageLabel } from "./carrier";

export const LABEL_TIMEOUT_MS = 10_000;
/** The most of a label service's answer that is read: 5 MiB is a hundred PDF labels. */
export const MAX_ANSWER_BYTES = 5 * 1024 * 1024;
/**
 * How much of a failing answer the 502 quotes: enough to tell an error page from a JSON error or a proxy's message,
 * too little to read a page through (the URL is the tenant admin's choice). docs/decisions/fulfilment.md.
 */
export const EXCERPT_CHARS = 100;
/** The most of an answer the excerpt is taken from: its start, where an error says what it is. */
const EXCERPT_SOURCE_CHARS = 16_384;

/** A tenant's label service for one carrier code (`PUT /settings/carriers/{code}`), its secret unsealed. */
export interface HttpCarrierSetting {
  code: string;
  url: string;
  secret: string;
}

/** What the label service must answer (docs/decisions/fulfilment.md, "The http carrier"). */
const LabelServiceAnswer = z.object({
  packages: z.array(
    z.object({
      packageId: z.string(),
      trackingNumber: z.string().trim().min(1).max(64),
      format: z.enum(["pdf", "zpl"]),
      label: z.string().min(1),
    }),
  ),
});

const utf8 = new TextDecoder();

/** The body's bytes, or null when it has more than `max` (reading stops there). */
async function readAtMost(response: Response, max: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  // An explicit reader: the body cannot be cancelled while a for-await loop holds it locked.
  const reader = response.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
    size += read.value.byteLength;
    if (size > max) {
      await reader?.cancel();
      return null;
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * An answer as the 502 may quote it: no markup (tags, comments, script and style blocks, a tag cut at the end), no
 * control or format characters, each run of white space one space, at most EXCERPT_CHARS whole characters (`…` when
 * cut). Empty when nothing readable is left.
 */
function answerExcerpt(answer: string): string {
  const plain = answer
    .slice(0, EXCERPT_SOURCE_CHARS)
    .replace(/<(script|style)\b[\s\S]*?(<\/\1\s*>|$)/gi, " ")
    .replace(/<!--[\s\S]*?(-->|$)/g, " ")
    .replace(/<[^>]*(>|$)/g, " ")
    .replace(/[\s\p{Cc}\p{Cf}\p{Cs}]+/gu, " ")
    .trim();
  const chars = Array.from(plain.slice(0, EXCERPT_CHARS * 2));
  return chars.length > EXCERPT_CHARS ? `${chars.slice(0, EXCERPT_CHARS).join("")}…` : plain;
}

/** The 502 of a label service that did not answer what the contract says, quoting a short, plain part of its answer. */
function serviceFailed(code: string, why: string, answer?: string): AppError {
  const quoted = answer === undefined ? "" : answerExcerpt(answer);
  const excerpt = quoted === "" ? [] : [`answer: ${quoted}`];
  return new AppError("BAD_GATEWAY", `The label service of carrier ${code} failed: ${why}`, {
    errors: [`labelService: ${why}`, ...excerpt],
  });
}

/** The labels in a well-formed answer: one for every package of the shipment, each label's bytes decoded. */
function labelsOf(code: string, request: LabelRequest, text: string): PackageLabel[] {
  let parsed: z.infer<typeof LabelServiceAnswer>;
  try {
    parsed = LabelServiceAnswer.parse(JSON.parse(text));
  } catch {
    throw serviceFailed(
      code,
      "the answer is not {packages: [{packageId, trackingNumber, format, label}]}",
      text,
    );
  }
  const byPackage = new Map(parsed.packages.map((p) => [p.packageId, p]));
  const expected = request.shipment.packages.map((p) => p.id);
  if (parsed.packages.length !== expected.length || expected.some((id) => !byPackage.has(id))) {
    throw serviceFailed(code, "the answer must name every package of the shipment exactly once", text);
  }
  return expected.map((packageId) => {
    const answer = byPackage.get(packageId) as z.infer<typeof LabelServiceAnswer>["packages"][number];
    let label: Uint8Array;
    try {
      label = fromBase64(answer.label);
    } catch {
      throw serviceFailed(code, `the label of package ${packageId} is not base64`, text);
    }
    return { packageId, trackingNumber: answer.trackingNumber, format: answer.format, label };
  });
}

/**
 * The `http` carrier: the tenant's own label service buys the labels. It gets a Standard Webhooks-signed POST
 * with the shipment (packages with SSCCs, weights, dimensions and contents), the order's number, ship-from and
 * ship-to, and answers a tracking number and a PDF or ZPL label (base64) per package. Anything else (no answer
 * in 10 s, a status other than 2xx, a body that is not the contract) is a 502 quoting the answer; nothing is
 * stored then, so the shipment stays as it was.
 */
export function httpCarrier(
  setting: HttpCarrierSetting,
  guard: { allowLocal: boolean; resolve?: Resolver },
): CarrierAdapter {
  return {
    async labels(request) {
      if (request.trackingNumbers.size > 0) {
        throw validationError([
          `trackingNumbers: carrier ${setting.code}'s label service assigns the tracking numbers; send none`,
        ]);
      }
      // The URL was checked when saved; DNS may have changed since (the same check as before a webhook delivery).
      const url = await assertDeliverableUrl(setting.url, guard);
      const now = new Date();
      const { shipment, orderNumber, shipFrom, shipTo } = request;
      const body = JSON.stringify({
        type: "shipment.label_requested",
        timestamp: now.toISOString(),
        data: { carrier: setting.code, service: shipment.service, orderNumber, shipFrom, shipTo, shipment },
      });
      const message = { id: uuidv7(), body, userAgent: "WarehouseAPI-Labels/1" };
      let response: Response;
      let bytes: Uint8Array | null;
      try {
        response = await signedPost(url.href, [setting.secret], message, now, LABEL_TIMEOUT_MS);
        bytes = await readAtMost(response, MAX_ANSWER_BYTES);
      } catch (error) {
        throw serviceFailed(setting.code, failureOf(error, LABEL_TIMEOUT_MS));
      }
      if (bytes === null) {
        throw serviceFailed(setting.code, `the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
      }
      const text = utf8.decode(bytes);
      if (response.status < 200 || response.status > 299) {
        throw serviceFailed(setting.code, `it answered ${response.status}`, text);
      }
      return labelsOf(setting.code, request, text);
    },
  };
}
