import { z } from "@hono/zod-openapi";
import { parseAllowListEntry } from "../auth/ip-allow-list";
import { scopes } from "../auth/scopes";
import { pageQuery, sortQuery } from "../http/pagination";

export const Scope = z.enum(scopes).openapi({ example: "read:products" });

/** An allow-list entry, as its canonical spelling (what is stored and shown); an ambiguous one is a 400. */
const allowListEntry = z
  .string()
  .trim()
  // Longer than any address or range (an IPv6 CIDR is at most 43 characters).
  .max(64)
  .transform((value, ctx) => {
    const entry = parseAllowListEntry(value);
    if ("canonical" in entry) return entry.canonical;
    ctx.addIssue({ code: "custom", message: entry.refused });
    return z.NEVER;
  })
  .openapi({ type: "string", maxLength: 64 });

export const CreateApiKeyBody = z
  .strictObject({
    name: z.string().trim().min(1, "Name is required").max(100),
    scopes: z.array(Scope).min(1, "at least one scope is required").max(scopes.length),
    allowedIps: z
      .array(allowListEntry)
      .max(50)
      .optional()
      .openapi({
        description:
          "Addresses or CIDR ranges the key may be used from (CF-Connecting-IP). IPv4 only as four decimal " +
          "numbers without leading zeros (`010.0.0.1` is refused: software reads it as 8.0.0.1 or 10.0.0.1); " +
          "IPv6 in any form, stored as RFC 5952 writes it; a range with no bits set past its prefix.",
        example: ["203.0.113.0/24", "2001:db8::/32"],
      }),
    expiresAt: z.iso
      .datetime({ offset: true, message: "must be an ISO 8601 timestamp" })
      .refine((value) => Date.parse(value) > Date.now(), "must be in the future")
      .optional(),
    merchantId: z
      .uuid("must be a merchant's id")
      .optional()
      .openapi({
        description:
          "The key acts for this merchant only: it reads and writes that merchant's products, stock, orders, " +
          "shipments, events and reports, and every other id is a 404. With `admin` it manages its own webhooks " +
          "(they receive its merchant's events only) but never administers the tenant: people, keys, merchants " +
          "and settings are 403.",
      }),
  })
  .openapi("CreateApiKeyRequest");
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

export const ApiKeyRecord = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().openapi({ description: "The key's first characters, to tell keys apart." }),
    scopes: z.array(Scope),
    allowedIps: z.array(z.string()).nullable(),
    expiresAt: z.string().nullable().openapi({ format: "date-time" }),
    lastUsedAt: z
      .string()
      .nullable()
      .openapi({ format: "date-time", description: "Updated at most once a minute." }),
    revokedAt: z.string().nullable().openapi({ format: "date-time" }),
    createdBy: z
      .string()
      .nullable()
      .openapi({
        description:
          "The member accountable for the key (for a key made with a key, that key's creator). The key's " +
          "rights are capped by this member's current role and merchant, and it stops working when they leave the tenant.",
      }),
    merchantId: z
      .uuid()
      .nullable()
      .openapi({ description: "The merchant the key acts for (null: the whole tenant)." }),
    madeWithKey: z
      .uuid()
      .nullable()
      .openapi({
        description:
          "The key this key was made with (null: a member made it). It works only while that key, and every key " +
          "above it, is neither revoked nor expired.",
      }),
    createdAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("ApiKey");

export const CreatedApiKey = ApiKeyRecord.extend({
  key: z.string().openapi({ description: "The plain key: shown in this response only." }),
}).openapi("CreatedApiKey");

export const ListApiKeysQuery = pageQuery.extend({
  sort: sortQuery(["createdAt", "name"], { field: "createdAt", direction: "desc" }),
});
export type ListApiKeysQuery = z.infer<typeof ListApiKeysQuery>;
