import { z } from "@hono/zod-openapi";
import type { Context } from "hono";

const success = <T>(data: T) => ({ success: true as const, data, message: null, errors: null });

/** 200 with the success envelope every JSON response uses (README, "Conventions"). */
export function ok<T>(c: Context, data: T) {
  return c.json(success(data), 200);
}

/** 201 with the envelope, and `Location` when the new resource has a URL. */
export function created<T>(c: Context, data: T, location?: string) {
  if (location) c.header("Location", location);
  return c.json(success(data), 201);
}

/** 202 with the envelope: the work is queued (a webhook delivery, for example). */
export function accepted<T>(c: Context, data: T) {
  return c.json(success(data), 202);
}

export function errorBody(message: string, errors: string[]) {
  return { success: false as const, data: null, message, errors };
}

/** The OpenAPI shape of a success envelope around `data`. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.literal(true),
    data,
    message: z.null(),
    errors: z.null(),
  });
}

export const ErrorEnvelope = z
  .object({
    success: z.literal(false),
    data: z.null(),
    message: z.string().openapi({ example: "Validation failed" }),
    errors: z.array(z.string()).openapi({ example: ["sku: SKU is required"] }),
  })
  .openapi("ErrorEnvelope");
