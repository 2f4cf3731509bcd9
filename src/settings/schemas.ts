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
  })
  .openapi("UpdateSettingsRequest");
export type UpdateSettingsBody = z.infer<typeof UpdateSettingsBody>;
