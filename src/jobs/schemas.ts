import { z } from "@hono/zod-openapi";
import { pagedOf, pageQuery } from "../http/pagination";
import { JobOptions, JobRecord, JobStatus, JobType } from "../record-schemas/job";
import { isImport } from "./catalogue";

// What creating and listing jobs take, and a page of them (a job's own shape: src/record-schemas/job.ts).

export const CreateJobBody = z
  .strictObject({
    type: JobType,
    uploadId: z.uuid("must be a UUID (the upload's id)").optional().openapi({
      description: "product_import and stock_import: the file to import (`POST /uploads`).",
    }),
    options: JobOptions.default({}),
  })
  .superRefine((body, ctx) => {
    const say = (path: (string | number)[], message: string) =>
      ctx.addIssue({ code: "custom", path, message });
    if (isImport(body.type) && body.uploadId === undefined) say(["uploadId"], `required for ${body.type}`);
    if (!isImport(body.type) && body.uploadId !== undefined)
      say(["uploadId"], `only for an import, not ${body.type}`);
    const allowed: Record<string, readonly string[]> = {
      stock_import: ["reason"],
      movements_export: ["from", "to"],
      events_export: ["from", "to", "types"],
    };
    for (const key of Object.keys(body.options)) {
      if (!(allowed[body.type] ?? []).includes(key)) say(["options", key], `not an option of ${body.type}`);
    }
    const { from, to } = body.options;
    if (from && to && Date.parse(from) >= Date.parse(to)) say(["options", "to"], "must be after from");
  })
  .openapi("CreateJobRequest");
export type CreateJobBody = z.infer<typeof CreateJobBody>;

export const JobsQuery = pageQuery.extend({
  status: JobStatus.optional(),
  type: JobType.optional(),
});
export type JobsQuery = z.infer<typeof JobsQuery>;

export const JobPage = pagedOf(JobRecord);
