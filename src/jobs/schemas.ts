import { z } from "@hono/zod-openapi";
import { type FieldRule, withRules } from "../http/field-rules";
import { pagedOf, pageQuery } from "../http/pagination";
import { JobOptions, JobRecord, JobStatus, JobType as JobTypeSchema } from "../record-schemas/job";
import { isImport, type JobType, jobTypes } from "./catalogue";

// What creating and listing jobs take, and a page of them (a job's own shape: src/record-schemas/job.ts).

/** The options each job type takes; any other is a 400. */
const optionsOf: Record<JobType, readonly (keyof JobOptions)[]> = {
  product_import: [],
  stock_import: ["reason"],
  products_export: [],
  stock_export: [],
  movements_export: ["from", "to"],
  events_export: ["from", "to", "types"],
};

type JobFields = { type: JobType; uploadId?: string; options: JobOptions };

/**
 * A job's fields by its type: an import needs `uploadId`, an export takes none, and each type its own options.
 * The document states it as one `oneOf` variant per type; `from` before `to` only in words (JSON Schema does not
 * compare two values).
 */
const fieldsByType: FieldRule<JobFields> = {
  check: (body, ctx) => {
    const say = (path: (string | number)[], message: string) =>
      ctx.addIssue({ code: "custom", path, message });
    if (isImport(body.type) && body.uploadId === undefined) say(["uploadId"], `required for ${body.type}`);
    if (!isImport(body.type) && body.uploadId !== undefined)
      say(["uploadId"], `only for an import, not ${body.type}`);
    for (const key of Object.keys(body.options)) {
      if (!(optionsOf[body.type] as readonly string[]).includes(key))
        say(["options", key], `not an option of ${body.type}`);
    }
    const { from, to } = body.options;
    if (from && to && Date.parse(from) >= Date.parse(to)) say(["options", "to"], "must be after from");
  },
  states: {
    oneOf: jobTypes.map((type) => ({
      title: type,
      properties: {
        type: { const: type },
        options: optionsOf[type].length ? { propertyNames: { enum: optionsOf[type] } } : { maxProperties: 0 },
      },
      ...(isImport(type)
        ? { required: ["type", "uploadId"] }
        : { required: ["type"], not: { required: ["uploadId"] } }),
    })),
  },
};

export const CreateJobBody = withRules(
  z.strictObject({
    type: JobTypeSchema,
    uploadId: z.uuid("must be a UUID (the upload's id)").optional().openapi({
      description: "product_import and stock_import: the file to import (`POST /uploads`).",
    }),
    options: JobOptions.default({}),
  }),
  fieldsByType,
).openapi("CreateJobRequest");
export type CreateJobBody = z.infer<typeof CreateJobBody>;

export const JobsQuery = pageQuery.extend({
  status: JobStatus.optional(),
  type: JobTypeSchema.optional(),
});
export type JobsQuery = z.infer<typeof JobsQuery>;

export const JobPage = pagedOf(JobRecord);
