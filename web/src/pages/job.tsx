import { useEffect } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api, unwrap } from "../api/client";
import { saveFile } from "../ui/download";
import { ErrorMessage } from "../ui/error-message";
import { useSubmit } from "../ui/form";
import { formatDateTime, formatInteger, statusLabel } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { ConfirmButton } from "../ui/modal";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";
import { jobName, jobProgress } from "./jobs";

/** How often a job still queued or running is read again. */
const WATCH_MS = 1500;

/** One job, watched until it ends: its progress, the rows it refused, its result and Cancel while it runs. */
export function JobPage() {
  const { params } = useRoute();
  const id = params.id ?? "";
  const loaded = useLoad(() => unwrap(api.GET("/api/v1/jobs/{id}", { params: { path: { id } } })), [id]);
  const job = loaded.data;
  const active = job?.status === "queued" || job?.status === "running";
  useEffect(() => {
    if (!active || loaded.state === "loading") return;
    const timer = setTimeout(loaded.reload, WATCH_MS);
    return () => clearTimeout(timer);
  }, [active, loaded.state, job?.processed]);
  const cancel = useSubmit(async () => {
    await unwrap(api.POST("/api/v1/jobs/{id}/cancel", { params: { path: { id } } }));
    loaded.reload();
  });
  const result = useSubmit(() =>
    saveFile(
      api.GET("/api/v1/jobs/{id}/result", { params: { path: { id } }, parseAs: "text" }),
      `${job ? jobName(job).replaceAll(" ", "-") : id}.csv`,
    ),
  );
  const title = job ? jobName(job) : "Job";
  useDocumentTitle(title);
  return (
    <>
      <p>
        <a href="/app/jobs">← Jobs</a>
      </p>
      <h1 tabIndex={-1}>{title}</h1>
      <Loaded load={loaded}>
        {(j) => (
          <>
            <dl class="details">
              <dt>Status</dt>
              <dd>
                <span class={`badge status-${j.status}`}>{statusLabel(j.status)}</span>
              </dd>
              <dt>Rows done</dt>
              <dd>{jobProgress(j)}</dd>
              <dt>Rows refused</dt>
              <dd>{formatInteger(j.failed)}</dd>
              <dt>Created</dt>
              <dd>{formatDateTime(j.createdAt)}</dd>
              <dt>Finished</dt>
              <dd>{formatDateTime(j.finishedAt)}</dd>
              {j.error && (
                <>
                  <dt>Why it failed</dt>
                  <dd>{j.error}</dd>
                </>
              )}
            </dl>
            {j.total !== null && (
              <progress class="job-progress" max={j.total || 1} value={j.processed} aria-label="Rows done" />
            )}
            <div class="toolbar">
              {j.resultUrl && (
                <button type="button" class="button" disabled={result.busy} onClick={() => void result.run()}>
                  {j.type.endsWith("_import") ? "Download error report" : "Download result"}
                </button>
              )}
              {active && (
                <ConfirmButton
                  label="Cancel job"
                  title={`Cancel ${title}?`}
                  danger
                  disabled={cancel.busy}
                  onConfirm={() => cancel.run()}
                >
                  <p>
                    It stops after the rows it is on; what it has done so far stays done. This cannot be
                    undone.
                  </p>
                </ConfirmButton>
              )}
            </div>
            <ErrorMessage error={result.error ?? cancel.error} />
            {j.errors.length > 0 && (
              <section aria-labelledby="job-errors-heading">
                <h2 id="job-errors-heading">Refused rows</h2>
                <Table label="Refused rows" columns={[{ label: "Line", number: true }, "Problems"]}>
                  {j.errors.map((row) => (
                    <tr key={row.line}>
                      <td class="number">{row.line}</td>
                      <td>{row.errors.join("; ")}</td>
                    </tr>
                  ))}
                </Table>
              </section>
            )}
          </>
        )}
      </Loaded>
    </>
  );
}
