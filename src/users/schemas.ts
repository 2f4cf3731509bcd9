import { z } from "@hono/zod-openapi";
import { roles } from "../auth/scopes";

export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .email("must be a valid email address")
  .max(254)
  .openapi({ example: "owner@example.com" });
export const Password = z
  .string()
  .min(8, "must be at least 8 characters")
  .max(256, "must be at most 256 characters")
  .openapi({ example: "correct horse battery staple" });
export const PersonName = z
  .string()
  .trim()
  .min(1, "is required")
  .max(200)
  .openapi({ example: "Ada Lovelace" });
export const Role = z.enum(roles).openapi({ example: "operator" });

export const NewUser = z.strictObject({ email: Email, password: Password, name: PersonName });

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
