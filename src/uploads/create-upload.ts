import { eq, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import type { TenantDb } from "../db/client";
import { insertSelect } from "../db/insert-select";
import { uploads } from "../db/schema/tenant";
import { inTenant } from "../db/tenant-scope";
import { uploadKey } from "../files/keys";
import { AppError } from "../http/errors";
import { assertUtf8Charset } from "../http/utf8";
import { csvHeaderCheck } from "./csv-header";
import {
  MAX_UPLOAD_BYTES,
  UPLOAD_QUOTA_BYTES,
  UPLOAD_TTL_MS,
  type UploadRecord,
  uploadFormats,
} from "./schemas";

/** How long an upload's row reserves its bytes while its file streams in (then it lives UPLOAD_TTL_MS). */
const STREAMING_MS = 60 * 60_000;

const formatOf = (contentType: string) => {
  const media = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return uploadFormats[media as keyof typeof uploadFormats];
};

/** The declared size of the file and its body: Content-Length, required, at most MAX_UPLOAD_BYTES, not 0. */
function declared(request: Request): { bytes: number; body: ReadableStream<Uint8Array> } {
  const length = request.headers.get("content-length");
  const bytes = length !== null && /^\d+$/.test(length) ? Number(length) : Number.NaN;
  if (Number.isNaN(bytes)) {
    throw new AppError("BAD_REQUEST", "Content-Length is required: send the file with its size", {
      errors: ["Content-Length: required (the file's size in bytes)"],
    });
  }
  if (bytes > MAX_UPLOAD_BYTES) {
    throw new AppError("PAYLOAD_TOO_LARGE", `An upload is at most ${MAX_UPLOAD_BYTES} bytes (100 MiB)`, {
      errors: [`body: ${bytes} bytes is more than ${MAX_UPLOAD_BYTES}`],
    });
  }
  if (bytes === 0 || !request.body) {
    throw new AppError("VALIDATION_FAILED", "The file is empty", { errors: ["body: the file is empty"] });
  }
  return { bytes, body: request.body };
}

/** The 413 of an upload the tenant's quota has no room for, saying what is stored and when room frees. */
async function overQuota(tdb: TenantDb, bytes: number): Promise<AppError> {
  const [stored] = await tdb.db
    .select({
      bytes: sql<number>`coalesce(sum(${uploads.bytes}), 0)`,
      next: sql<string | null>`min(${uploads.expiresAt})`,
    })
    .from(uploads)
    .where(inTenant(tdb, uploads));
  const held = stored?.bytes ?? 0;
  const next = stored?.next ? `; the first to expire does at ${stored.next}` : "";
  return new AppError(
    "PAYLOAD_TOO_LARGE",
    `The tenant's uploads hold ${held} bytes: ${bytes} more would pass its quota of ${UPLOAD_QUOTA_BYTES} bytes (1 GiB). ` +
      `An upload is deleted when it expires, 7 days after it is made${next}`,
    {
      errors: [
        `body: ${bytes} bytes do not fit in the ${UPLOAD_QUOTA_BYTES - held} bytes left of the tenant's upload quota`,
      ],
    },
  );
}

/**
 * `POST /uploads`: the upload's row first, reserving its bytes in the tenant's quota in the statement that checks
 * the quota (so two uploads at once cannot both take the last room), then the request body streamed to R2 as it
 * arrives (never held in memory), then the row's expiry set. The size is refused from Content-Length before anything
 * is read; R2 stores a stream only of a known length (`FixedLengthStream`), so a body that ends before its
 * Content-Length, or runs past it, stores nothing: a 400, and the reservation is given back. So does a CSV whose
 * header cannot be read (`csvHeaderCheck`).
 */
export async function createUpload(
  tdb: TenantDb,
  bucket: R2Bucket,
  actor: Actor,
  request: Request,
  filename: string | undefined,
): Promise<UploadRecord> {
  const contentType = request.headers.get("content-type") ?? "";
  const format = formatOf(contentType);
  if (!format) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be text/csv or application/x-ndjson");
  }
  assertUtf8Charset(contentType);
  const { bytes, body } = declared(request);
  const id = uuidv7();
  const now = new Date();
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  // Every stored upload counts, expired or not, until the cron deletes it (src/uploads/sweep-expired.ts).
  const stored = sql`(select coalesce(sum(${uploads.bytes}), 0) from ${uploads} where ${inTenant(tdb, uploads)})`;
  const reserved = await tdb.db.run(
    insertSelect(
      uploads,
      {
        id,
        tenantId: tdb.tenantId,
        format,
        bytes,
        filename: filename ?? null,
        actorType: actor.actorType,
        actorId: actor.actorId,
        createdAt: now.toISOString(),
        expiresAt: at(STREAMING_MS),
      },
      sql`where ${stored} + ${bytes} <= ${UPLOAD_QUOTA_BYTES}`,
    ),
  );
  if (reserved.meta.changes === 0) throw await overQuota(tdb, bytes);
  const key = uploadKey(tdb.tenantId, id);
  let received = 0;
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
  );
  const header = format === "csv" ? csvHeaderCheck() : null;
  const checked = header ? counted.pipeThrough(header.stream) : counted;
  try {
    await bucket.put(key, checked.pipeThrough(new FixedLengthStream(bytes)), {
      httpMetadata: { contentType },
    });
  } catch (error) {
    // A header checked at the file's very end errs its stream once every byte is through: the file may be stored.
    await bucket.delete(key);
    await tdb.db.delete(uploads).where(inTenant(tdb, uploads, eq(uploads.id, id)));
    const unreadable = header?.problem();
    if (unreadable) throw unreadable;
    if (received === bytes) throw error;
    const why =
      received < bytes
        ? `ended after ${received} of the ${bytes} bytes Content-Length announced`
        : `is longer than the ${bytes} bytes Content-Length announced`;
    throw new AppError(
      "VALIDATION_FAILED",
      "The body is not as long as its Content-Length: nothing was stored",
      {
        errors: [`body: ${why}`],
      },
    );
  }
  const [row] = await tdb.db
    .update(uploads)
    .set({ expiresAt: at(UPLOAD_TTL_MS) })
    .where(inTenant(tdb, uploads, eq(uploads.id, id)))
    .returning();
  if (!row) throw new Error("Expected the upload's row");
  return {
    id: row.id,
    format: row.format,
    bytes: row.bytes,
    filename: row.filename,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  };
}
