import { z } from "@hono/zod-openapi";
import { withRules } from "../http/field-rules";
import { MemberMerchant, ownerForWholeTenant } from "../identity/invitation-schemas";
import { Role } from "../identity/person-fields";

export const UpdateUserBody = withRules(
  z.strictObject({
    role: Role,
    merchantId: MemberMerchant,
  }),
  ownerForWholeTenant,
).openapi("UpdateUserRequest");

export const MemberRecord = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string(),
    role: Role,
    merchantId: z
      .uuid()
      .nullable()
      .openapi({ description: "The merchant the member acts for (null: the whole tenant)." }),
    joinedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("User");
