import { z } from "@hono/zod-openapi";
import { Role } from "../identity/person-fields";

export const UpdateUserBody = z
  .strictObject({
    role: Role,
    merchantId: z
      .uuid("must be a merchant's id")
      .nullable()
      .optional()
      .openapi({
        description:
          "The member acts for this merchant only (its products, stock, orders, shipments, events and reports; " +
          "every other id is a 404; never people, keys, merchants or settings); omitted or null: the whole tenant. " +
          "Not with the owner role.",
      }),
  })
  .openapi("UpdateUserRequest");

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
