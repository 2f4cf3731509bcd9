import { expect } from "vitest";
import { createLocation, type TestTenant, unique } from "./builders";
import { BASE, call, fetchApi } from "./http";

// Uploads and jobs as an integrator drives them: a file sent to POST /uploads, a job created, its status polled.

type Job = {
  id: string;
  status: string;
  processed: number;
  failed: number;
  errors: { line: number; errors: string[] }[];
} & Record<string, unknown>;

/** Uploads `text` as a file of `contentType`; returns the upload's id. */
export async function upload(headers: Record<string, string>, text: string, contentType = "text/csv") {
  const bytes = new TextEncoder().encode(text);
  const response = await fetchApi(
    new Request(`${BASE}/uploads`, {
      method: "POST",
      headers: { ...headers, "content-type": contentType, "content-length": String(bytes.byteLength) },
      body: bytes,
    }),
  );
  const body = (await response.json()) as { data: { id: string } };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.data.id;
}

/** Creates a job; returns it (as POST /jobs answers). */
export async function startJob(headers: Record<string, string>, body: Record<string, unknown>): Promise<Job> {
  const res = await call("POST", "/jobs", { headers, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Job;
}

const ENDED = new Set(["succeeded", "failed", "cancelled"]);

/** Polls GET /jobs/{id} until the job has ended (or `until` holds); returns it as last read. */
export async function waitForJob(
  headers: Record<string, string>,
  id: string,
  until: (job: Job) => boolean = (job) => ENDED.has(job.status),
  timeoutMs = 120_000,
): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call("GET", `/jobs/${id}`, { headers });
    expect(res.status).toBe(200);
    const job = res.body.data as Job;
    if (until(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The job's result file as text, and its response. */
export async function jobResult(headers: Record<string, string>, id: string) {
  const response = await fetchApi(new Request(`${BASE}/jobs/${id}/result`, { headers }));
  return { response, text: await response.text() };
}

/** A whole job: upload (imports) and create, then wait for its end. */
export async function runJob(headers: Record<string, string>, body: Record<string, unknown>) {
  const job = await startJob(headers, body);
  return waitForJob(headers, job.id);
}

/** `count` new products (imported 1,000 at a time) and a new bin of `warehouseId`, named as a file names them. */
export async function catalog(tenant: TestTenant, warehouseId: string, count: number) {
  const prefix = `J-${unique().toUpperCase()}`;
  const skus = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  for (let i = 0; i < count; i += 1000) {
    const imported = await call("POST", "/products/import", {
      headers: tenant.admin,
      body: skus.slice(i, i + 1000).map((sku) => ({ sku, name: `Item ${sku}` })),
    });
    expect(imported.status).toBe(200);
  }
  const location = await createLocation(tenant, warehouseId);
  return { skus, locationCode: location.code as string, locationId: location.id as string };
}
