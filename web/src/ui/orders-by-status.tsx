import { CountChart } from "./charts";

/** Orders counted by type and current status, as the order summary report totals them. */
export function OrdersByStatusChart({
  byStatus,
}: {
  byStatus: { type: "sales" | "purchase"; status: string; orders: number }[];
}) {
  return byStatus.length === 0 ? (
    <p>No orders in this period.</p>
  ) : (
    <CountChart
      title="Orders by status"
      bars={byStatus.map((s) => ({
        label: `${s.type === "sales" ? "Sales" : "Purchase"}: ${s.status.replaceAll("_", " ")}`,
        value: s.orders,
      }))}
    />
  );
}
