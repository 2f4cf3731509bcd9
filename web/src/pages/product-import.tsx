import { useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { useSubmit } from "../ui/form";
import { Modal } from "../ui/modal";

type Result = Schemas["ProductImportResult"];

/**
 * Imports products from CSV in two steps: Preview sends the file with dryRun=true, so every row's problem is listed
 * (by the API, with its row number) and nothing is written; Import then uploads the same file (`POST /uploads`) and
 * starts a `product_import` job on it (`POST /jobs`), whose page watches it run. The job updates existing SKUs and
 * creates new ones (the batch writer's upsert), so the preview asks the same of the dry run.
 */
export function ImportDialog({ onClose, onJob }: { onClose: () => void; onJob: (jobId: string) => void }) {
  const [csv, setCsv] = useState("");
  const [filename, setFilename] = useState("products.csv");
  const [preview, setPreview] = useState<Result | null>(null);
  const csvBody = {
    headers: { "Content-Type": "text/csv" },
    bodySerializer: (body: unknown) => body as string, // CSV text as it is, not JSON
  };
  const check = useSubmit(async () =>
    setPreview(
      await unwrap(
        api.POST("/api/v1/products/import", {
          params: { query: { mode: "upsert", dryRun: "true" } },
          body: csv,
          ...csvBody,
        }),
      ),
    ),
  );
  const run = useSubmit(async () => {
    const upload = await unwrap(
      api.POST("/api/v1/uploads", { params: { query: { filename } }, body: csv, ...csvBody }),
    );
    const job = await unwrap(
      api.POST("/api/v1/jobs", { body: { type: "product_import", uploadId: upload.id } }),
    );
    onJob(job.id);
  });
  const change = (next: () => void) => {
    next();
    setPreview(null);
  };
  return (
    <Modal title="Import products (CSV)" onClose={onClose}>
      <p class="muted">
        A header row, then one product a row: sku, name, barcode, category, unit, price, cost, reorderPoint,
        description, status (Active or Inactive, in any case), tracking (none, lot or serial).
      </p>
      <label class="field">
        <span>CSV file</span>
        <input
          type="file"
          accept=".csv,text/csv"
          onChange={async (event) => {
            const file = event.currentTarget.files?.[0];
            if (file) {
              const text = await file.text();
              change(() => {
                setCsv(text);
                setFilename(file.name);
              });
            }
          }}
        />
      </label>
      <label class="field">
        <span>Or paste it</span>
        <textarea rows={6} value={csv} onInput={(e) => change(() => setCsv(e.currentTarget.value))} />
      </label>
      <ErrorMessage error={check.error ?? run.error} />
      {preview && (
        <p class="alert alert-info" role="status">
          Preview: {preview.rows} rows, {preview.created} to create, {preview.updated} to update. Nothing was
          written yet.
        </p>
      )}
      <div class="actions">
        <button type="button" class="button" onClick={onClose} disabled={check.busy || run.busy}>
          Cancel
        </button>
        <button
          type="button"
          class="button"
          onClick={() => void check.run()}
          disabled={!csv.trim() || check.busy}
        >
          Preview
        </button>
        <button
          type="button"
          class="button button-primary"
          onClick={() => void run.run()}
          disabled={!preview || run.busy}
        >
          Import as a job
        </button>
      </div>
    </Modal>
  );
}
