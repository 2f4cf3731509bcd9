import { z } from "@hono/zod-openapi";
import { INTERNAL_COMPANY_PREFIX } from "../gs1/sscc";

export const TenantSettingsRecord = z
  .object({
    gs1CompanyPrefix: z
      .string()
      .nullable()
      .openapi({
        description: `The tenant's GS1 company prefix, from which package SSCCs are built; null: the internal prefix ${INTERNAL_COMPANY_PREFIX} is used.`,
      }),
    currency: z.string().nullable().openapi({
      description:
        "The tenant's currency (ISO 4217): that of product prices and costs, order amounts and stock valuation, which the web app shows with every amount. Null until an admin sets it. A rate card names its own currency (a merchant may be billed in another).",
      example: "EUR",
    }),
    updatedAt: z.string().nullable().openapi({ format: "date-time" }),
  })
  .openapi("TenantSettings");
export type TenantSettingsRecord = z.infer<typeof TenantSettingsRecord>;

export const UpdateSettingsBody = z
  .strictObject({
    gs1CompanyPrefix: z
      .string()
      .regex(/^\d{7,10}$/, "must be 7 to 10 digits (a GS1 company prefix)")
      .nullable()
      .optional()
      .openapi({ example: "4006381" }),
    currency: z
      .string({ error: "must be an ISO 4217 currency code (EUR, USD, ...)" })
      .regex(/^[A-Z]{3}$/, "must be an ISO 4217 currency code (EUR, USD, ...)")
      .nullable()
      .optional()
      .openapi({
        description:
          "ISO 4217, in capitals; null removes it. Amounts are not converted: only their label changes.",
        example: "EUR",
      }),
  })
  .openapi("UpdateSettingsRequest");
export type UpdateSettingsBody = z.infer<typeof UpdateSettingsBody>;
