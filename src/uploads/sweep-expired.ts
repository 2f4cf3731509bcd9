import { and, asc, inArray, lte, sql } from "drizzle-orm";
import { tenantDatabases } from "../db/client";
import { jobs, uploads } from "../db/schema/tenant";
import type { Bindings } from "../env";
import { uploadKey } from "../files/keys";

// Uploads are kept until they expire (UPLOAD_TTL_MS after they are made), then the cron deletes the file and its
// row, so they stop counting toward the tenant's quota. An upload a queued or running job imports is kept until that
// job ends. docs/decisions/jobs.md, "Uploads".

/** Uploads deleted per shard and run: one statement's ids, under D1's 100 bound parameters; the next minute goes on. */
const PER_RUN = 90;

/** Deletes the expired uploads no live job reads (their files, then their rows); returns how many. */
export async function sweepExpiredUploads(env: Bindings, now = new Date()): Promise<number> {
  const at = now.toISOString();
  let deleted = 0;
  for (const database of tenantDatabases(env)) {
    const due = await database
      .select({ id: uploads.id, tenantId: uploads.tenantId })
      .from(uploads)
      .where(
        and(
          lte(uploads.expiresAt, at),
          sql`not exists (select 1 from ${jobs} where ${jobs.tenantId} = ${uploads.tenantId}
            and ${jobs.uploadId} = ${uploads.id} and ${jobs.status} in ('queued', 'running'))`,
        ),
      )
      .orderBy(asc(uploads.expiresAt))
      .limit(PER_RUN);
    if (due.length === 0) continue;
    // The files first: a row left by a failure here is swept again next minute, a file without a row never would be.
    await env.FILES.delete(due.map((upload) => uploadKey(upload.tenantId, upload.id)));
    await database.delete(uploads).where(
      inArray(
        uploads.id,
        due.map((upload) => upload.id),
      ),
    );
    deleted += due.length;
  }
  return deleted;
}
