import { useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api, unwrap } from "../api/client";
import { currentMerchant } from "../session/session";
import { saveFile } from "../ui/download";
import { ErrorMessage } from "../ui/error-message";
import { useSubmit } from "../ui/form";
import { formatCurrency, formatDateTime, formatInteger } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { useMerchants } from "../ui/lookups";
import { ConfirmDialog } from "../ui/modal";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";
import { BillingNav, merchantCode, rateLabel } from "./billing-parts";
import { invoiceName } from "./invoices";

/** One invoice: its lines and total in its currency, the CSV, and Void (the 3PL's, while it is issued). */
export function InvoicePage() {
  const { params } = useRoute();
  const id = params.id ?? "";
  const loaded = useLoad(
    () => unwrap(api.GET("/api/v1/billing/invoices/{id}", { params: { path: { id } } })),
    [id],
  );
  const merchants = useMerchants();
  const [voiding, setVoiding] = useState(false);
  const invoice = loaded.data;
  const title = invoice ? invoiceName(merchantCode(merchants.data, invoice.merchantId), invoice) : "Invoice";
  useDocumentTitle(title);
  const csv = useSubmit(() =>
    saveFile(
      api.GET("/api/v1/billing/invoices/{id}", {
        params: { path: { id }, query: { format: "csv" } },
        parseAs: "text",
      }),
      `${title.replaceAll(" ", "-")}.csv`,
    ),
  );
  return (
    <>
      <p>
        <a href="/app/billing/invoices">← Invoices</a>
      </p>
      <h1 tabIndex={-1}>{title}</h1>
      <BillingNav />
      <Loaded load={loaded}>
        {(inv) => (
          <>
            <dl class="details">
              <dt>Status</dt>
              <dd>
                <span class={`badge status-${inv.status}`}>{inv.status}</span>
              </dd>
              <dt>Total</dt>
              <dd>{formatCurrency(inv.totalExact, inv.currency)}</dd>
              <dt>Covers until</dt>
              <dd>{formatDateTime(inv.coveredUntil)}</dd>
              <dt>Made</dt>
              <dd>{formatDateTime(inv.createdAt)}</dd>
              {inv.voidedAt && (
                <>
                  <dt>Voided</dt>
                  <dd>{formatDateTime(inv.voidedAt)}</dd>
                </>
              )}
            </dl>
            <div class="toolbar">
              <button type="button" class="button" disabled={csv.busy} onClick={() => void csv.run()}>
                Download CSV
              </button>
              {inv.status === "issued" && !currentMerchant() && (
                <button type="button" class="button button-danger" onClick={() => setVoiding(true)}>
                  Void invoice
                </button>
              )}
            </div>
            <ErrorMessage error={csv.error} />
            <Table
              label="Invoice lines"
              columns={[
                "Charge",
                { label: "Quantity", number: true },
                { label: "Unit price", number: true },
                { label: "Total", number: true },
              ]}
            >
              {inv.lines.map((line) => (
                <tr key={`${rateLabel(line)} ${line.unitPriceExact}`}>
                  <td>{rateLabel(line)}</td>
                  <td class="number">{formatInteger(line.quantity)}</td>
                  <td class="number">{formatCurrency(line.unitPriceExact, inv.currency)}</td>
                  <td class="number">{formatCurrency(line.totalExact, inv.currency)}</td>
                </tr>
              ))}
              <tr class="total-row">
                <td>Total</td>
                <td />
                <td />
                <td class="number">{formatCurrency(inv.totalExact, inv.currency)}</td>
              </tr>
            </Table>
            {voiding && (
              <ConfirmDialog
                title={`Void ${title}?`}
                confirmLabel="Void invoice"
                onClose={() => setVoiding(false)}
                onConfirm={async () => {
                  await unwrap(api.POST("/api/v1/billing/invoices/{id}/void", { params: { path: { id } } }));
                  loaded.reload();
                }}
              >
                <p>The month may then be invoiced again, from the records as they are then.</p>
              </ConfirmDialog>
            )}
          </>
        )}
      </Loaded>
    </>
  );
}
