import { api, unwrap } from "../api/client";
import { DailyMovementsChart, fillDays } from "../ui/charts";
import { formatInteger, utcDay } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { useMoney } from "../ui/money";
import { OrdersByStatusChart } from "../ui/orders-by-status";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";

const DAYS = 30;

export function Dashboard() {
  useDocumentTitle("Dashboard");
  const money = useMoney();
  const range = { from: utcDay(DAYS - 1), to: utcDay(0) };
  // One read: the four reports' totals the page shows (GET /dashboard), not four requests slowing each other.
  const dashboard = useLoad(
    () => unwrap(api.GET("/api/v1/dashboard", { params: { query: { ...range, lowStockLimit: 10 } } })),
    [],
  );

  return (
    <>
      <h1 tabIndex={-1}>Dashboard</h1>
      <section aria-labelledby="stock-heading">
        <h2 id="stock-heading">Stock</h2>
        <Loaded load={dashboard}>
          {({ stock: totals }) => (
            <dl class="stats">
              <div>
                <dt>On hand</dt>
                <dd>{formatInteger(totals.onHand)} units</dd>
              </div>
              <div>
                <dt>Reserved</dt>
                <dd>{formatInteger(totals.reserved)} units</dd>
              </div>
              <div>
                <dt>Non-sellable</dt>
                <dd>{formatInteger(totals.nonSellable)} units</dd>
              </div>
              {totals.expired > 0 && (
                <div>
                  <dt>Expired</dt>
                  <dd>{formatInteger(totals.expired)} units</dd>
                </div>
              )}
              <div>
                <dt>Available</dt>
                <dd>{formatInteger(totals.available)} units</dd>
              </div>
              <div>
                <dt>Value at cost</dt>
                <dd>{money(totals.valueExact)}</dd>
              </div>
            </dl>
          )}
        </Loaded>
        <p class="muted">
          Available is on hand less what orders reserve, what sits at non-sellable locations (quarantine) and
          expired lots.
        </p>
      </section>
      <div class="columns">
        <section aria-labelledby="movements-heading">
          <h2 id="movements-heading">Stock movements per day</h2>
          <p class="muted">
            The last {DAYS} days (UTC), {range.from} to {range.to}.
          </p>
          <Loaded load={dashboard}>
            {({ movements: totals }) => (
              <DailyMovementsChart
                title="Stock movements per day"
                days={fillDays(totals.byDay, range.from, range.to)}
              />
            )}
          </Loaded>
        </section>
        <section aria-labelledby="orders-heading">
          <h2 id="orders-heading">Orders by status</h2>
          <p class="muted">Orders created in the last {DAYS} days, by their current status.</p>
          <Loaded load={dashboard}>
            {({ orders }) => <OrdersByStatusChart byStatus={orders.byStatus} />}
          </Loaded>
        </section>
      </div>
      <section aria-labelledby="low-heading">
        <h2 id="low-heading">Low stock</h2>
        <Loaded load={dashboard}>
          {({ lowStock: report }) =>
            report.items.length === 0 ? (
              <p>Nothing is at or below its reorder point.</p>
            ) : (
              <>
                <p class="muted">
                  {report.totalCount} product{report.totalCount === 1 ? "" : "s"} at or below the reorder
                  point, per warehouse
                  {report.totalCount > report.items.length ? `; the ${report.items.length} shown first` : ""}.
                </p>
                <Table
                  label="Low stock"
                  columns={[
                    "Product",
                    "Warehouse",
                    { label: "Available", number: true },
                    { label: "Reorder point", number: true },
                    { label: "Shortfall", number: true },
                  ]}
                >
                  {report.items.map((row) => (
                    <tr key={`${row.productId}:${row.warehouseId}`}>
                      <td>
                        <a href={`/app/products/${row.productId}`}>{row.sku}</a> {row.productName}
                      </td>
                      <td>{row.warehouseCode}</td>
                      <td class="number">{row.available}</td>
                      <td class="number">{row.reorderPoint}</td>
                      <td class="number">{row.shortfall}</td>
                    </tr>
                  ))}
                </Table>
              </>
            )
          }
        </Loaded>
      </section>
    </>
  );
}
