import { api, unwrap } from "../api/client";
import { DailyMovementsChart, fillDays } from "../ui/charts";
import { saveFile } from "../ui/download";
import { ErrorMessage } from "../ui/error-message";
import { useSubmit } from "../ui/form";
import { formatInteger, utcDay } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { useMoney } from "../ui/money";
import { OrdersByStatusChart } from "../ui/orders-by-status";
import { useDocumentTitle } from "../ui/title";
import { filterFields, useUrlFilters } from "../ui/url-filters";
import { useLoad } from "../ui/use-load";

type Report = "inventory-valuation" | "stock-movements" | "low-stock" | "order-summary";

/** The four reports over a chosen span of UTC days: charts of the totals, and each report as a CSV file. */
export function Reports() {
  useDocumentTitle("Reports");
  const money = useMoney();
  const { values, show } = useUrlFilters(["from", "to"] as const);
  const from = values.from || utcDay(29);
  const to = values.to || utcDay(0);
  // One read of the totals the page charts (GET /dashboard over the chosen days), not three reports.
  const totals = useLoad(
    () => unwrap(api.GET("/api/v1/dashboard", { params: { query: { from, to, lowStockLimit: 1 } } })),
    [from, to],
  );
  const download = useSubmit((report: Report) => {
    const csv = { format: "csv" as const };
    const call =
      report === "stock-movements"
        ? api.GET("/api/v1/reports/stock-movements", {
            params: { query: { ...csv, from, to } },
            parseAs: "text",
          })
        : report === "order-summary"
          ? api.GET("/api/v1/reports/order-summary", {
              params: { query: { ...csv, from, to } },
              parseAs: "text",
            })
          : report === "low-stock"
            ? api.GET("/api/v1/reports/low-stock", { params: { query: csv }, parseAs: "text" })
            : api.GET("/api/v1/reports/inventory-valuation", { params: { query: csv }, parseAs: "text" });
    return saveFile(call, `${report}.csv`);
  });
  const csvButton = (report: Report, label: string) => (
    <button type="button" class="button" disabled={download.busy} onClick={() => void download.run(report)}>
      {label}
    </button>
  );
  return (
    <>
      <h1 tabIndex={-1}>Reports</h1>
      <form
        class="filters"
        aria-label="Report period"
        onSubmit={(event) => {
          const f = filterFields(event);
          show({ from: f.from ?? "", to: f.to ?? "" });
        }}
      >
        <label class="field">
          <span>From</span>
          <input name="from" type="date" defaultValue={from} required />
        </label>
        <label class="field">
          <span>To</span>
          <input name="to" type="date" defaultValue={to} required />
        </label>
        <button type="submit" class="button button-primary">
          Show
        </button>
      </form>
      <div class="toolbar">
        {csvButton("stock-movements", "Movements CSV")}
        {csvButton("order-summary", "Orders CSV")}
        {csvButton("inventory-valuation", "Valuation CSV")}
        {csvButton("low-stock", "Low stock CSV")}
      </div>
      <ErrorMessage error={download.error} />
      <section aria-labelledby="valuation-heading">
        <h2 id="valuation-heading">Inventory valuation (now)</h2>
        <Loaded load={totals}>
          {({ stock }) => (
            <dl class="stats">
              <div>
                <dt>On hand</dt>
                <dd>{formatInteger(stock.onHand)} units</dd>
              </div>
              <div>
                <dt>Value at cost</dt>
                <dd>{money(stock.value)}</dd>
              </div>
            </dl>
          )}
        </Loaded>
      </section>
      <div class="columns">
        <section aria-labelledby="movements-heading">
          <h2 id="movements-heading">Stock movements per day</h2>
          <Loaded load={totals}>
            {({ movements }) => (
              <DailyMovementsChart
                title="Stock movements per day"
                days={fillDays(movements.byDay, from, to)}
              />
            )}
          </Loaded>
        </section>
        <section aria-labelledby="orders-heading">
          <h2 id="orders-heading">Orders by status</h2>
          <Loaded load={totals}>{({ orders }) => <OrdersByStatusChart byStatus={orders.byStatus} />}</Loaded>
        </section>
      </div>
    </>
  );
}
