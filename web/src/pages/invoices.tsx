import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { StatusFilter } from "../ui/filtered-list";
import { fieldsOf, useSubmit } from "../ui/form";
import { DialogActions } from "../ui/form-dialog";
import { formatCurrency, formatDateTime, utcDay } from "../ui/format";
import { LoadedList } from "../ui/loaded-list";
import { Modal } from "../ui/modal";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { filterFields, useUrlFilters } from "../ui/url-filters";
import { useLoad } from "../ui/use-load";
import { BillingNav, MerchantField, merchantCode, useBilledMerchant } from "./billing-parts";

type InvoiceStatus = Schemas["Invoice"]["status"];
const STATUSES: InvoiceStatus[] = ["issued", "voided"];

/** How an invoice is named on screens: its merchant and month. */
export const invoiceName = (merchant: string, invoice: { period: string }) =>
  `Invoice ${merchant} ${invoice.period}`;

/** Invoices, newest first (filters: merchant, month, status), and Make invoice for a merchant's month. */
export function Invoices() {
  useDocumentTitle("Invoices");
  const { route } = useLocation();
  const { values, page, show } = useUrlFilters(["merchant", "period", "status"] as const);
  const billed = useBilledMerchant(values.merchant, false);
  const { merchantId } = billed;
  const [making, setMaking] = useState(false);
  const invoices = useLoad(
    () =>
      unwrap(
        api.GET("/api/v1/billing/invoices", {
          params: {
            query: {
              page,
              pageSize: 25,
              ...(merchantId && !billed.own && { merchantId }),
              ...(values.period && { period: values.period }),
              ...(values.status && { status: values.status as InvoiceStatus }),
            },
          },
        }),
      ),
    [page, merchantId, values.period, values.status],
  );
  const code = (id: string) => merchantCode(billed.merchants.data, id);
  return (
    <>
      <h1 tabIndex={-1}>Invoices</h1>
      <BillingNav />
      {!billed.own && (
        <div class="toolbar">
          <button type="button" class="button button-primary" onClick={() => setMaking(true)}>
            Make invoice
          </button>
        </div>
      )}
      <form
        class="filters"
        aria-label="Filter invoices"
        onSubmit={(event) => {
          const { merchant = "", period = "", status = "" } = filterFields(event);
          show({ merchant, period, status, page: 1 });
        }}
      >
        <MerchantField billed={billed} required={false} />
        <label class="field">
          <span>Month</span>
          <input name="period" type="month" defaultValue={values.period} placeholder="YYYY-MM" />
        </label>
        <StatusFilter statuses={STATUSES} initial={values.status} />
        <button type="submit" class="button button-primary">
          Apply
        </button>
      </form>
      <LoadedList
        load={invoices}
        empty={
          merchantId || values.period || values.status
            ? "No invoices match these filters."
            : "No invoices yet."
        }
        onPage={(next) => show({ page: next })}
      >
        {(list) => (
          <Table
            label="Invoices"
            columns={["Invoice", "Status", { label: "Total", number: true }, "Covers until", "Made"]}
          >
            {list.items.map((invoice) => (
              <tr key={invoice.id}>
                <td>
                  <a href={`/app/billing/invoices/${invoice.id}`}>
                    {invoiceName(code(invoice.merchantId), invoice)}
                  </a>
                </td>
                <td>
                  <span class={`badge status-${invoice.status}`}>{invoice.status}</span>
                </td>
                <td class="number">{formatCurrency(invoice.totalExact, invoice.currency)}</td>
                <td>{formatDateTime(invoice.coveredUntil)}</td>
                <td>{formatDateTime(invoice.createdAt)}</td>
              </tr>
            ))}
          </Table>
        )}
      </LoadedList>
      {making && (
        <MakeInvoiceDialog
          billed={billed}
          onClose={() => setMaking(false)}
          onMade={(id) => route(`/app/billing/invoices/${id}`)}
        />
      )}
    </>
  );
}

/** A merchant's month: the API answers the period's standing invoice when one is issued, else makes it. */
function MakeInvoiceDialog({
  billed,
  onClose,
  onMade,
}: {
  billed: ReturnType<typeof useBilledMerchant>;
  onClose: () => void;
  onMade: (id: string) => void;
}) {
  const submit = useSubmit(async (f: Record<string, string>) => {
    const invoice = await unwrap(
      api.POST("/api/v1/billing/invoices", {
        body: { merchantId: f.merchant ?? "", period: f.period ?? "" },
      }),
    );
    onMade(invoice.id);
  });
  return (
    <Modal title="Make invoice" onClose={onClose}>
      <form onSubmit={(event) => void submit.run(fieldsOf(event))}>
        <MerchantField billed={billed} required />
        <label class="field">
          <span>Month</span>
          <input name="period" type="month" required defaultValue={utcDay().slice(0, 7)} />
        </label>
        <p class="muted">
          The running month is billed up to now; void its invoice at the month's end and make it again for the
          rest.
        </p>
        <DialogActions submit={submit} submitLabel="Make invoice" onClose={onClose} />
      </form>
    </Modal>
  );
}
