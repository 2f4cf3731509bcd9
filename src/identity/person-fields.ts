import { z } from "@hono/zod-openapi";
import { roles } from "../auth/scopes";

// The fields that describe a person, shared by sign-up, sign-in, invitations and the platform's tenant creation.
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
