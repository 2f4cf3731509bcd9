import { z } from "@hono/zod-openapi";
import { jobStatuses, jobTypes } from "../db/schema/tenant";
import { feedTypes } from "../outbox/catalog";

// A job as its own operations and its `job.*` events show it (src/jobs, src/events): an import of an uploaded
// file or an export to a file, run as a Workflow instance (docs/decisions/jobs.md).

/** Row errors a job shows; the import's error report (its result) lists every one. */
export const MAX_SHOWN_ERRORS = 100;

export const JobType = z.enum(jobTypes, {
  error: `must be one of ${jobTypes.join(", ")}`,
});

export const JobStatus = z.enum(jobStatuses).openapi("JobStatus");

const instant = (description: string) =>
  z.iso
    .datetime({ offset: true, error: "must be an ISO 8601 date-time" })
    .optional()
    .openapi({ description });

export const JobOptions = z
  .strictObject({
    reason: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(64, "must be at most 64 characters")
      .optional()
      .openapi({
        description:
          "stock_import: the ledger reason of rows that give `quantity` without their own `reason` (default `import`).",
      }),
    from: instant("movements_export, events_export: rows from this instant (inclusive); default: the first."),
    to: instant(
      "movements_export, events_export: rows before this instant, which is after `from`; default: when the job starts.",
    ),
    types: z
      .array(
        z
          .string()
          .regex(/^[a-z_]+\.(\*|[a-z_]+)$/, "must be an event type of the feed, or a family (`order.*`)")
          .refine(
            (name) =>
              feedTypes.some((type) =>
                name.endsWith(".*") ? type.startsWith(name.slice(0, -1)) : type === name,
              ),
            "must be an event type of the feed, or a family (`order.*`)",
          ),
      )
      .min(1, "must name at least 1 type")
      .max(feedTypes.length, `must name at most ${feedTypes.length} types`)
      .optional()
      .openapi({
        description:
          "events_export: only these types or families (`inventory.*`); default every type your scopes can read.",
        example: ["inventory.*", "order.shipped"],
      }),
  })
  .openapi("JobOptions");

export type JobOptions = z.infer<typeof JobOptions>;

export const RowError = z
  .object({
    line: z.number().int().openapi({ description: "The row's line in the file (the CSV header is line 1)." }),
    errors: z.array(z.string()).openapi({ example: ["sku: product NOPE not found"] }),
  })
  .openapi("JobRowError");

export type RowError = z.infer<typeof RowError>;

export const JobRecord = z
  .object({
    id: z.uuid(),
    type: JobType,
    status: JobStatus,
    uploadId: z.uuid().nullable(),
    options: JobOptions,
    total: z.number().int().nullable().openapi({
      description:
        "Rows in the file (an import) or in the snapshot (an export), once the job has counted them.",
    }),
    processed: z.number().int().openapi({ description: "Rows done so far, failed ones included." }),
    failed: z.number().int().openapi({ description: "Rows that could not be applied (an import)." }),
    errors: z.array(RowError).openapi({
      description: `The first ${MAX_SHOWN_ERRORS} failing rows in line order; the error report has them all.`,
    }),
    asOf: z.iso.datetime().nullable().openapi({
      description: "An export's snapshot: the instant it was read at (every row is as it was then).",
    }),
    asOfSeq: z
      .number()
      .int()
      .nullable()
      .openapi({
        description:
          "An export's snapshot as a sequence number: the last event seq (products, stock, events) or the last " +
          "ledger row (movements) it includes.",
      }),
    error: z.string().nullable().openapi({ description: "Why the job failed (status `failed`)." }),
    resultUrl: z.string().nullable().openapi({
      description:
        "When the job succeeded: the export file, or the import's error report (`GET /jobs/{id}/result`).",
      example: "/api/v1/jobs/0193a5c1-6f2e-7c4a-9b1d-3e5f7a9c2b4d/result",
    }),
    createdAt: z.iso.datetime(),
    startedAt: z.iso.datetime().nullable(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .openapi("Job");

export type JobRecord = z.infer<typeof JobRecord>;
