import { useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { useSubmit } from "../ui/form";
import { Modal } from "../ui/modal";
import { SelectField } from "../ui/select-field";

type Result = Schemas["ProductImportResult"];

/**
 * Imports products from CSV in two steps: Preview sends the file with dryRun=true, so every row's problem is listed
 * (by the API, with its row number) and nothing is written; Import then sends the same file for real.
 */
export function ImportDialog({ onClose, onImported }: { onClose: () => void; onImported: () => void }) {
  const [csv, setCsv] = useState("");
  const [mode, setMode] = useState<"create" | "upsert">("upsert");
  const [preview, setPreview] = useState<Result | null>(null);
  const send = (dryRun: boolean) =>
    unwrap(
      api.POST("/api/v1/products/import", {
        params: { query: { mode, dryRun: dryRun ? "true" : "false" } },
        body: csv,
        headers: { "Content-Type": "text/csv" },
        bodySerializer: (body) => body as string, // CSV text as it is, not JSON
      }),
    );
  const check = useSubmit(async () => setPreview(await send(true)));
  const run = useSubmit(async () => {
    await send(false);
    onImported();
    onClose();
  });
  const change = (next: () => void) => {
    next();
    setPreview(null);
  };
  return (
    <Modal title="Import products (CSV)" onClose={onClose}>
      <p class="muted">
        A header row, then one product a row: sku, name, barcode, category, unit, price, cost, reorderPoint,
        description, status.
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
              change(() => setCsv(text));
            }
          }}
        />
      </label>
      <label class="field">
        <span>Or paste it</span>
        <textarea rows={6} value={csv} onInput={(e) => change(() => setCsv(e.currentTarget.value))} />
      </label>
      <SelectField
        label="Existing SKUs"
        choices={[
          { value: "upsert", label: "Update them" },
          { value: "create", label: "Refuse them (create only)" },
        ]}
        value={mode}
        onChange={(value) => change(() => setMode(value as "create" | "upsert"))}
      />
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
          Import
        </button>
      </div>
    </Modal>
  );
}
