import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { UPLOAD_QUOTA_BYTES } from "../src/uploads/schemas";
import { sweepExpiredUploads } from "../src/uploads/sweep-expired";
import { createTenant, type TestTenant, unique } from "./support/builders";
import { tenantDatabase } from "./support/database";
import { BASE, call, fetchApi } from "./support/http";
import { upload } from "./support/jobs";

// Uploads: a per-tenant storage quota, an expiry the cron enforces, merchant credentials refused, and a body that
// is not as long as its Content-Length refused with nothing stored (issue #44).

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

/** Sends `body` to POST /uploads as a CSV of `declared` bytes (its real length unless given). */
async function send(
  t: TestTenant,
  body: Uint8Array | ReadableStream<Uint8Array>,
  declared: number,
  headers = t.admin,
) {
  const response = await fetchApi(
    new Request(`${BASE}/uploads`, {
      method: "POST",
      headers: { ...headers, "content-type": "text/csv", "content-length": String(declared) },
      body,
      duplex: "half",
    } as RequestInit),
  );
  return {
    status: response.status,
    body: (await response.json()) as { data: { id: string }; message?: string; errors?: string[] },
  };
}

const csv = (text: string) => new TextEncoder().encode(text);
/** A CSV file of exactly `bytes` bytes (at least 12). */
const fileOf = (bytes: number) => csv(`sku,name\nX,${"y".repeat(bytes - 12)}\n`);

/** The tenant's stored uploads: rows, and files under its uploads prefix. */
async function stored(t: TestTenant) {
  const rows = await (await tenantDatabase(t.id))
    .prepare("select id, bytes, expires_at as expiresAt from uploads where tenant_id = ? order by created_at")
    .bind(t.id)
    .all<{ id: string; bytes: number; expiresAt: string }>();
  const files = await env.FILES.list({ prefix: `${t.id}/uploads/` });
  return { rows: rows.results, files: files.objects.map((o) => o.key.split("/").at(-1)) };
}

/** Stands in for large uploads already stored: a row of `bytes` (its file is not needed to count). */
async function seedStored(t: TestTenant, bytes: number, expiresAt = new Date(Date.now() + 86_400_000)) {
  await (await tenantDatabase(t.id))
    .prepare(
      "insert into uploads (id, tenant_id, format, bytes, actor_type, actor_id, created_at, expires_at) values (?, ?, 'csv', ?, 'user', 'seed', ?, ?)",
    )
    .bind(crypto.randomUUID(), t.id, bytes, new Date().toISOString(), expiresAt.toISOString())
    .run();
}

describe("uploads", () => {
  it("a merchant's credential is refused (403): the jobs that read uploads run for the whole tenant", async () => {
    const m = await call("POST", "/merchants", {
      headers: tenant.admin,
      body: { code: `M-${unique()}`, name: "Brand" },
    });
    const key = await call("POST", "/api-keys", {
      headers: tenant.admin,
      body: { name: "brand", scopes: ["write:products", "write:inventory"], merchantId: m.body.data.id },
    });
    const res = await send(tenant, csv("sku,name\nA,B\n"), 14, { "x-api-key": key.body.data.key as string });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      "Uploads are imported by jobs, which run for the whole tenant: a credential acting for one merchant cannot upload",
    );
  });

  it("counts what is stored against the tenant's quota: a clear 413 past it, and room again once uploads expire", async () => {
    const t = await createTenant();
    await seedStored(t, UPLOAD_QUOTA_BYTES - 30, new Date(Date.now() - 1000));
    const over = await send(t, fileOf(31), 31);
    expect(over.status).toBe(413);
    expect(over.body.errors).toEqual([
      "body: 31 bytes do not fit in the 30 bytes left of the tenant's upload quota",
    ]);
    expect((await send(t, fileOf(27), 27)).status).toBe(201);
    expect((await send(t, fileOf(14), 14)).status).toBe(413);
    // The seeded upload has expired: the cron deletes it, and its bytes are free again.
    await sweepExpiredUploads(env);
    expect((await stored(t)).rows.map((row) => row.bytes)).toEqual([27]);
    expect((await send(t, fileOf(31), 31)).status).toBe(201);
  });

  it("two uploads at once cannot both take the last room", async () => {
    const t = await createTenant();
    await seedStored(t, UPLOAD_QUOTA_BYTES - 40);
    const answers = await Promise.all([send(t, fileOf(25), 25), send(t, fileOf(25), 25)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 413]);
  });

  it("an expired upload is refused by jobs, and the cron deletes its file and row", async () => {
    const t = await createTenant();
    const id = await upload(t.admin, "sku,name\nEXP-1,One\n");
    const kept = await upload(t.admin, "sku,name\nEXP-2,Two\n");
    await (await tenantDatabase(t.id))
      .prepare("update uploads set expires_at = ? where tenant_id = ? and id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), t.id, id)
      .run();
    const job = await call("POST", "/jobs", {
      headers: t.admin,
      body: { type: "product_import", uploadId: id },
    });
    expect(job.status).toBe(404);
    await sweepExpiredUploads(env);
    expect(await stored(t)).toMatchObject({ rows: [{ id: kept }], files: [kept] });
  });

  it("the sweep deletes at most 90 expired uploads a shard a run (one statement's ids), at 10 and at 1,000", async () => {
    for (const count of [10, 1000]) {
      const t = await createTenant();
      const past = new Date(Date.now() - 1000).toISOString();
      await (await tenantDatabase(t.id))
        .prepare(
          `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
           insert into uploads (id, tenant_id, format, bytes, actor_type, actor_id, created_at, expires_at)
           select lower(hex(randomblob(16))), ?, 'csv', 1, 'user', 'seed', ?, ? from n`,
        )
        .bind(count, t.id, past, past)
        .run();
      const runs: number[] = [];
      for (let deleted = -1; deleted !== 0; ) {
        deleted = await sweepExpiredUploads(env);
        runs.push(deleted);
      }
      expect(Math.max(...runs), String(count)).toBeLessThanOrEqual(90);
      expect(runs.length, String(count)).toBeGreaterThan(Math.ceil(count / 90));
      expect((await stored(t)).rows, String(count)).toEqual([]);
    }
  });

  it("an expired upload a running job reads is kept until that job ends", async () => {
    const t = await createTenant();
    const id = await upload(t.admin, "sku,name\nRUN-1,One\n");
    const database = await tenantDatabase(t.id);
    // Stands in for a job started before the upload expired, still running when the cron comes.
    const jobId = crypto.randomUUID();
    await database.batch([
      database
        .prepare("update uploads set expires_at = ? where tenant_id = ? and id = ?")
        .bind(new Date(Date.now() - 1000).toISOString(), t.id, id),
      database
        .prepare(
          "insert into jobs (id, tenant_id, type, status, upload_id, options, actor_type, actor_id, request_id, created_at) values (?, ?, 'product_import', 'running', ?, '{}', 'user', 'x', 'x', ?)",
        )
        .bind(jobId, t.id, id, new Date().toISOString()),
    ]);
    await sweepExpiredUploads(env);
    expect((await stored(t)).files).toEqual([id]);
    await database
      .prepare("update jobs set status = 'succeeded' where tenant_id = ? and id = ?")
      .bind(t.id, jobId)
      .run();
    await sweepExpiredUploads(env);
    expect(await stored(t)).toEqual({ rows: [], files: [] });
  });

  it("a CSV whose header cannot be read is a 400 naming its line, and nothing is stored", async () => {
    const t = await createTenant();
    for (const [file, error] of [
      [csv("sku,name,sku\nH-1,One,H-2\n"), "body: line 1: the header names the column sku twice"],
      [csv("\r\n\nsku,name,name\nH-1,One,Two\n"), "body: line 3: the header names the column name twice"],
      [
        new Uint8Array([...csv("sku,n"), 0xe4, ...csv("me\nH-1,One\n")]),
        "body: line 1: the header is not valid UTF-8",
      ],
      [
        csv('sku,"name\nH-1,One\n'),
        "body: line 1: a quote opened on line 1 is never closed (every line after it was read into one cell)",
      ],
      [csv("sku,name,sku"), "body: line 1: the header names the column sku twice"],
    ] as const) {
      const res = await send(t, file, file.byteLength);
      expect(res.status, error).toBe(400);
      expect(res.body.errors).toEqual([error]);
    }
    // A header longer than the stream's first chunks is read whole; one past 1 MiB is refused unread.
    const wide = csv(
      `sku,name,${Array.from({ length: 20_000 }, (_, i) => `c${i}`).join(",")},name\nW-1,One\n`,
    );
    expect((await send(t, wide, wide.byteLength)).body.errors).toEqual([
      "body: line 1: the header names the column name twice",
    ]);
    const long = csv(`sku,${"n".repeat(1_100_000)}\nL-1,One\n`);
    expect((await send(t, long, long.byteLength)).body.errors).toEqual([
      "body: line 1: the header is longer than 1048576 bytes",
    ]);
    expect(await stored(t)).toEqual({ rows: [], files: [] });
    // A header that can be read, however the file ends, is stored.
    const good = csv(`sku,name,${Array.from({ length: 20_000 }, (_, i) => `c${i}`).join(",")}`);
    expect((await send(t, good, good.byteLength)).status).toBe(201);
  });

  it("a body shorter than its Content-Length is a 400, and nothing is stored or counted", async () => {
    const t = await createTenant();
    const res = await send(t, csv("sku,name\nSHORT,Body\n"), 100);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(["body: ended after 20 of the 100 bytes Content-Length announced"]);
    expect(await stored(t)).toEqual({ rows: [], files: [] });
  });
});
