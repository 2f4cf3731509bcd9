import { z } from "@hono/zod-openapi";

// An upload: a file (CSV or NDJSON) kept in R2 for a job to import.

export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
/** How long an upload can be named by a job; the cron deletes it after (src/uploads/sweep-expired.ts). */
export const UPLOAD_TTL_MS = 7 * 24 * 60 * 60_000;
/** What a tenant's stored uploads may hold in all: ten files of the largest size. docs/decisions/jobs.md. */
export const UPLOAD_QUOTA_BYTES = 1024 * 1024 * 1024;

/** The media types an upload may have, and the format each means. */
export const uploadFormats = {
  "text/csv": "csv",
  "application/x-ndjson": "ndjson",
} as const;

export const UploadQuery = z.object({
  filename: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(255)
    // The app's control-character check skips this route (its body is a file): the name is checked here.
    .refine((name) => !/[\p{Cc}\p{Cf}]/u.test(name), "must not contain control characters")
    .optional()
    .openapi({ description: "The file's name, kept for your reference.", example: "stock.csv" }),
});

export const UploadRecord = z
  .object({
    id: z.uuid(),
    format: z.enum(["csv", "ndjson"]).openapi({ description: "From the upload's Content-Type." }),
    bytes: z.number().int(),
    filename: z.string().nullable(),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().openapi({ description: "A job can name the upload until then." }),
  })
  .openapi("Upload");
export type UploadRecord = z.infer<typeof UploadRecord>;
