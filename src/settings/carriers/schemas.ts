import { z } from "@hono/zod-openapi";
import { carrierAdapters } from "../../db/schema/tenant";
import { ReceiverUrl } from "../../outbound/receiver-url";

export const MAX_CARRIERS_PER_TENANT = 50;

// The code a shipment's `carrier` names: a label for a shipment whose carrier is a configured code goes through
// that code's adapter (docs/decisions/fulfilment.md, "Labels").
const CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const CODE_RULE =
  "must be 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit";

export const CarrierCodeParam = z.object({
  code: z
    .string()
    .regex(CODE, CODE_RULE)
    .openapi({ param: { name: "code", in: "path" }, example: "dhl" }),
});

// `whsec_` and the base64 of 24 to 64 random bytes, a Standard Webhooks secret as its libraries read one: 8 to 20
// groups of four characters (24 to 60 bytes) and an optional padded tail (up to 62), or 21 groups (63) and `xx==` (64).
const B64 = "[A-Za-z0-9+/]";
const SIGNING_SECRET = new RegExp(
  `^whsec_(?:(?:${B64}{4}){8,20}(?:${B64}{2}==|${B64}{3}=)?|(?:${B64}{4}){21}(?:${B64}{2}==)?)$`,
);

export const PutCarrierBody = z
  .strictObject({
    adapter: z.enum(carrierAdapters, { error: `must be one of ${carrierAdapters.join(", ")}` }),
    url: ReceiverUrl.openapi({ example: "https://labels.example.com/warehouse" }),
    secret: z
      .string({ error: "must be a string" })
      .regex(SIGNING_SECRET, "must be whsec_ followed by the base64 of 24 to 64 random bytes")
      .openapi({
        description:
          "The Standard Webhooks secret the label requests are signed with (`whsec_` and base64). Stored encrypted; never shown again.",
        example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      }),
  })
  .openapi("PutCarrierRequest");
export type PutCarrierBody = z.infer<typeof PutCarrierBody>;

export const CarrierRecord = z
  .object({
    code: z.string().openapi({ example: "dhl" }),
    adapter: z.enum(carrierAdapters),
    url: z.string().openapi({ format: "uri" }),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Carrier", { description: "A carrier's label service; the secret is never shown." });
export type CarrierRecord = z.infer<typeof CarrierRecord>;
