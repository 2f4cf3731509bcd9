import type { Scope } from "../auth/scopes";
import type { TenantDb } from "../db/client";
import { jobPartKey } from "../files/keys";
import { csvRecord } from "../http/csv-record";
import { conflict } from "../http/errors";
import { assertMaySee } from "./access";
import { isImport } from "./catalogue";
import { resultColumns } from "./exports";
import { findJob, resultParts } from "./job-rows";

/** The objects' bodies one after another, each read only when the client has taken the one before. */
function concatenated(
  bucket: R2Bucket,
  keys: readonly string[],
  first: Uint8Array,
): ReadableStream<Uint8Array> {
  let next = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(first),
    async pull(controller) {
      for (;;) {
        if (!reader) {
          const key = keys[next++];
          if (key === undefined) return controller.close();
          const object = await bucket.get(key);
          if (!object) return controller.error(new Error(`A part of the result is missing: ${key}`));
          reader = object.body.getReader();
        }
        const read = await reader.read();
        if (!read.done) return controller.enqueue(read.value);
        reader = undefined;
      }
    },
  });
}

/**
 * `GET /jobs/{id}/result`: a succeeded job's file, from R2: an export's rows, or an import's error report (`line,
 * errors`, every failing row). A CSV with its header row; its name says the export's snapshot (`as-of-<instant>`
 * and the seq). Its parts are streamed one after another, with their total length.
 */
export async function jobResult(tdb: TenantDb, bucket: R2Bucket, held: readonly Scope[], jobId: string) {
  const job = await findJob(tdb, jobId);
  assertMaySee(held, job);
  if (job.status !== "succeeded") throw conflict(`The job has no result: it is ${job.status}`);
  const parts = await resultParts(tdb, jobId);
  const header = new TextEncoder().encode(csvRecord(resultColumns(job.type)));
  const length = header.byteLength + parts.reduce((sum, part) => sum + (part.bytes ?? 0), 0);
  const body = concatenated(
    bucket,
    parts.map((part) => jobPartKey(tdb.tenantId, jobId, part.chunk)),
    header,
  ).pipeThrough(new FixedLengthStream(length));
  const name = isImport(job.type)
    ? `${job.type}-${job.id}-errors.csv`
    : `${job.type}-as-of-${job.asOf?.replaceAll(":", "-")}-seq-${job.asOfSeq}.csv`;
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
    },
  });
}
