import { useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { useSubmit } from "../ui/form";
import { formatDateTime, formatInteger } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { ConfirmButton } from "../ui/modal";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";

type Count = Schemas["InventoryCount"];
type Line = Schemas["InventoryCountLine"];
const lineKey = (line: Line) => `${line.productId}:${line.locationId}:${line.lotId ?? ""}`;

/**
 * One count: enter what was found per line (Save counts), Submit it, then review the variances and Approve, which
 * books each variance into the ledger as a `cycle_count` movement.
 */
export function CountPage() {
  const { params } = useRoute();
  const id = params.id ?? "";
  const count = useLoad(
    () => unwrap(api.GET("/api/v1/inventory/counts/{id}", { params: { path: { id } } })),
    [id],
  );
  useDocumentTitle(`Count ${id.slice(-6)}`);
  return (
    <>
      <p>
        <a href="/app/counts">← Cycle counts</a>
      </p>
      <h1 tabIndex={-1}>Count {id.slice(-6)}</h1>
      <Loaded load={count}>{(c) => <CountBody count={c} onChanged={count.reload} />}</Loaded>
    </>
  );
}

function CountBody({ count, onChanged }: { count: Count; onChanged: () => void }) {
  const [entered, setEntered] = useState<Record<string, string>>({});
  const act = useSubmit(async (action: "save" | "submit" | "approve" | "cancel") => {
    const path = { params: { path: { id: count.id } } };
    if (action === "save" || action === "submit") {
      const lines = count.lines
        .filter((line) => entered[lineKey(line)] !== undefined && entered[lineKey(line)] !== "")
        .map((line) => ({
          productId: line.productId,
          locationId: line.locationId,
          ...(line.lotNumber && { lotNumber: line.lotNumber }),
          counted: Number(entered[lineKey(line)]),
        }));
      if (lines.length > 0)
        await unwrap(api.PUT("/api/v1/inventory/counts/{id}/lines", { ...path, body: { lines } }));
      setEntered({});
    }
    if (action === "submit") await unwrap(api.POST("/api/v1/inventory/counts/{id}/submit", path));
    if (action === "approve") await unwrap(api.POST("/api/v1/inventory/counts/{id}/approve", path));
    if (action === "cancel") await unwrap(api.POST("/api/v1/inventory/counts/{id}/cancel", path));
    onChanged();
  });
  const open = count.status === "open";
  return (
    <>
      <dl class="details">
        <dt>Status</dt>
        <dd>
          <span class={`badge status-${count.status}`}>{count.status}</span>
        </dd>
        <dt>Lines</dt>
        <dd>
          {formatInteger(count.totals.counted)} of {formatInteger(count.totals.lines)} counted,{" "}
          {formatInteger(count.totals.withVariance)} with a variance (net{" "}
          {count.totals.variance > 0 ? "+" : ""}
          {formatInteger(count.totals.variance)})
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(count.createdAt)}</dd>
        {count.approvedAt && (
          <>
            <dt>Approved</dt>
            <dd>{formatDateTime(count.approvedAt)}</dd>
          </>
        )}
      </dl>
      <Table
        label="Count lines"
        columns={[
          "Location",
          "Product",
          "Lot",
          { label: "Expected", number: true },
          { label: "Counted", number: true },
          { label: "Variance", number: true },
        ]}
      >
        {count.lines.map((line) => (
          <tr key={lineKey(line)} class={line.variance ? "variance" : undefined}>
            <td>{line.locationCode}</td>
            <td>
              <a href={`/app/products/${line.productId}`}>{line.sku}</a>
            </td>
            <td>{line.lotNumber ?? "—"}</td>
            <td class="number">{formatInteger(line.expected)}</td>
            <td class="number">
              {open ? (
                <input
                  class="count-input"
                  type="number"
                  min={0}
                  step={1}
                  inputMode="numeric"
                  aria-label={`Counted ${line.sku} at ${line.locationCode}`}
                  placeholder={line.counted === null ? "" : String(line.counted)}
                  value={entered[lineKey(line)] ?? ""}
                  onInput={(e) => setEntered({ ...entered, [lineKey(line)]: e.currentTarget.value })}
                />
              ) : line.counted === null ? (
                "—"
              ) : (
                formatInteger(line.counted)
              )}
            </td>
            <td class="number">
              {line.variance === null
                ? "—"
                : `${line.variance > 0 ? "+" : ""}${formatInteger(line.variance)}`}
            </td>
          </tr>
        ))}
      </Table>
      <div class="toolbar">
        {open && (
          <>
            <button type="button" class="button" disabled={act.busy} onClick={() => void act.run("save")}>
              Save counts
            </button>
            <button
              type="button"
              class="button button-primary"
              disabled={act.busy}
              onClick={() => void act.run("submit")}
            >
              Submit for review
            </button>
          </>
        )}
        {count.status === "submitted" && (
          <ConfirmButton
            label="Approve variances"
            title="Approve this count's variances?"
            disabled={act.busy}
            onConfirm={() => act.run("approve")}
          >
            <p>
              {count.totals.withVariance === 0
                ? "No line has a variance: the count is closed and stock stays as it is."
                : `${formatInteger(count.totals.withVariance)} ${count.totals.withVariance === 1 ? "line's variance is" : "lines' variances are"} booked to stock as cycle-count movements (net ${count.totals.variance > 0 ? "+" : ""}${formatInteger(count.totals.variance)} units).`}{" "}
              This cannot be undone.
            </p>
          </ConfirmButton>
        )}
        {(open || count.status === "submitted") && (
          <ConfirmButton
            label="Cancel count"
            title="Cancel this count?"
            danger
            disabled={act.busy}
            onConfirm={() => act.run("cancel")}
          >
            <p>Its counted figures are dropped and stock stays as it is. This cannot be undone.</p>
          </ConfirmButton>
        )}
      </div>
      <ErrorMessage error={act.error} />
    </>
  );
}
