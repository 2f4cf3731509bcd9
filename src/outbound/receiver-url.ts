import { z } from "@hono/zod-openapi";

/** A receiver's URL as the SSRF guard (url-guard.ts) admits it: webhook subscriptions and carrier label services. */
export const ReceiverUrl = z
  .string()
  .trim()
  .min(1, "URL is required")
  .max(2048)
  .openapi({
    format: "uri",
    description:
      "`https://` on a public host name, port 443 or 8443, without credentials. Host names are normalised " +
      "(lower case, punycode, no trailing dot) and refused when internal (`localhost`, `.local`, `.internal`...), " +
      "an IP address, or resolving to a non-public address; checked when saved and again before each call.",
    example: "https://erp.example.com/hooks/warehouse",
  });
