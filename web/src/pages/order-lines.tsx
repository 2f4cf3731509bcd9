import { Fragment } from "preact";
import { countryName } from "../../../src/order-core/countries";
import type { Schemas } from "../api/client";
import { formatInteger } from "../ui/format";
import { useMoney } from "../ui/money";
import { Table } from "../ui/table";

type Order = Schemas["Order"];
type Line = Order["lines"][number];
type KitLine = Order["kitLines"][number];

/** A sales order's customer: the name it was given (or the ship-to's), with the integrator's id beside it. */
export function Customer({ order }: { order: Order }) {
  const name = order.customerName ?? order.shippingAddress?.name;
  if (!order.customerId) return <>{name ?? "—"}</>;
  return name ? (
    <>
      {name} <span class="muted">(id {order.customerId})</span>
    </>
  ) : (
    <span class="muted">No name given (id {order.customerId})</span>
  );
}

/** An address as a carrier reads it: recipient, company, street lines, postal code and city, region, country. */
export function ShipTo({ address }: { address: NonNullable<Order["shippingAddress"]> }) {
  const country = address.countryCode ? countryName(address.countryCode) : address.country;
  const lines = [
    address.name,
    address.company,
    address.street,
    address.street2,
    `${address.zip} ${address.city}`,
    address.state,
    country,
  ].filter(Boolean);
  return (
    <address class="ship-to">
      {lines.map((line) => (
        <span key={line}>{line}</span>
      ))}
      {address.phone && <span class="muted">Phone {address.phone}</span>}
      {address.email && <span class="muted">Email {address.email}</span>}
    </address>
  );
}

/** Units of a sales line not yet shipped nor closed by a short pick. */
const openOf = (line: Line) => line.quantity - (line.shippedQuantity ?? 0) - (line.backorderedQuantity ?? 0);

/**
 * An order's lines. A sales line shows what became of its units: reserved now, picked on pick lists, shipped,
 * backordered (closed by a short pick) and still open. A kit is its own row (kits sold, at the kit's price) with
 * its components under it, each with its own figures and no price of its own (the kit's price covers them).
 */
export function OrderLines({ order }: { order: Order }) {
  const money = useMoney();
  const sales = order.type === "sales";
  const skuOf = (line: Line | KitLine) => line.sku ?? line.productId.slice(0, 8);
  const named = (line: Line | KitLine) => (
    <>
      <a href={`/app/products/${line.productId}`}>{skuOf(line)}</a> {line.productName}
    </>
  );
  const lots = (line: Line) =>
    line.lots?.length
      ? line.lots
          .map(
            (lot) =>
              `${lot.lotNumber} × ${lot.quantity}${lot.expiresAt ? ` (expires ${lot.expiresAt})` : ""}`,
          )
          .join("; ")
      : (line.lotNumber ?? "—");
  const figures = (line: Line) =>
    sales ? (
      <>
        <td class="number">{formatInteger(line.reservedQuantity ?? 0)}</td>
        <td class="number">{formatInteger(line.pickedQuantity ?? 0)}</td>
        <td class="number">{formatInteger(line.shippedQuantity ?? 0)}</td>
        <td class="number">{formatInteger(line.backorderedQuantity ?? 0)}</td>
        <td class="number">{formatInteger(openOf(line))}</td>
      </>
    ) : (
      <td class="number">{formatInteger(line.receivedQuantity ?? 0)}</td>
    );
  // A component is numbered within its kit (2.1, 2.2), as the request listed the kit, not the stored line number.
  const lineRow = (line: Line, inKit?: { kit: KitLine; position: number }) => (
    <tr key={line.id} class={inKit ? "kit-component" : undefined}>
      <td>{inKit ? `${inKit.kit.lineNo}.${inKit.position}` : line.lineNo}</td>
      <td>
        {inKit && <span class="muted">Part of kit {skuOf(inKit.kit)}: </span>}
        {named(line)}
      </td>
      <td class="number">{formatInteger(line.quantity)}</td>
      {figures(line)}
      <td class="number">{inKit ? <span class="muted">in kit</span> : money(line.price ?? line.cost)}</td>
      <td class="number">{inKit ? <span class="muted">in kit</span> : money(line.lineTotalExact)}</td>
      <td>{lots(line)}</td>
    </tr>
  );
  const kitRow = (kit: KitLine) => (
    <tr key={kit.id} class="kit-line">
      <td>{kit.lineNo}</td>
      <td>
        <span class="badge">Kit</span> {named(kit)}
      </td>
      <td class="number">{formatInteger(kit.quantity)}</td>
      {sales &&
        ["reserved", "picked", "shipped", "backordered", "open"].map((figure) => (
          <td key={figure} class="number muted">
            —
          </td>
        ))}
      <td class="number">{money(kit.price)}</td>
      <td class="number">{money(kit.lineTotalExact)}</td>
      <td>—</td>
    </tr>
  );
  // Request order: each line sold on its own, each kit followed by its components.
  const own = order.lines.filter((l) => !l.kitLineId);
  const rows = [
    ...own.map((line) => ({ lineNo: line.lineNo, row: lineRow(line) })),
    ...order.kitLines.map((kit) => ({
      lineNo: kit.lineNo,
      row: (
        <Fragment key={kit.id}>
          {kitRow(kit)}
          {order.lines
            .filter((l) => l.kitLineId === kit.id)
            .map((line, i) => lineRow(line, { kit, position: i + 1 }))}
        </Fragment>
      ),
    })),
  ].sort((a, b) => a.lineNo - b.lineNo);
  return (
    <Table
      label="Lines"
      columns={[
        "#",
        "Product",
        { label: sales ? "Ordered" : "Quantity", number: true },
        ...(sales
          ? [
              { label: "Reserved", number: true },
              { label: "Picked", number: true },
              { label: "Shipped", number: true },
              { label: "Backordered", number: true },
              { label: "Open", number: true },
            ]
          : [{ label: "Received", number: true }]),
        { label: sales ? "Price" : "Cost", number: true },
        { label: "Line total", number: true },
        "Lots",
      ]}
    >
      {rows.map((r) => r.row)}
    </Table>
  );
}
