import { uuidv7 } from "uuidv7";
import type { Actor } from "../auth/principal";
import type { TenantDb } from "../db/client";
import { uploads } from "../db/schema/tenant";
import { uploadKey } from "../files/keys";
import { AppError } from "../http/errors";
import { assertUtf8Charset } from "../http/utf8";
import { MAX_UPLOAD_BYTES, UPLOAD_TTL_MS, type UploadRecord, uploadFormats } from "./schemas";

const formatOf = (contentType: string) => {
  const media = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return uploadFormats[media as keyof typeof uploadFormats];
};

/**
 * `POST /uploads`: the request body streamed to R2 as it arrives (never held in memory), then its row. The size
 * is refused from Content-Length before anything is read; R2 stores a stream only of a known length, and the
 * runtime ends a body that does not match its Content-Length, so the stored file is exactly that long.
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
  const id = uuidv7();
  const body = request.body.pipeThrough(new FixedLengthStream(bytes));
  await bucket.put(uploadKey(tdb.tenantId, id), body, {
    httpMetadata: { contentType: request.headers.get("content-type") ?? undefined },
  });
  const now = new Date();
  const [row] = await tdb.db
    .insert(uploads)
    .values({
      id,
      tenantId: tdb.tenantId,
      format,
      bytes,
      filename: filename ?? null,
      actorType: actor.actorType,
      actorId: actor.actorId,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS).toISOString(),
    })
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
