import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { StatusFilter } from "../ui/filtered-list";
import { useSubmit } from "../ui/form";
import { DialogActions } from "../ui/form-dialog";
import { formatDateTime, formatInteger, statusLabel } from "../ui/format";
import { LoadedList } from "../ui/loaded-list";
import { codeOf, useWarehouses, warehouseChoices } from "../ui/lookups";
import { chosenOwner, MerchantField, useMerchantChoice } from "../ui/merchant-field";
import { Modal } from "../ui/modal";
import { useMoney } from "../ui/money";
import { productByCode } from "../ui/products-lookup";
import { SelectField } from "../ui/select-field";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { filterFields, useUrlFilters } from "../ui/url-filters";
import { useLoad } from "../ui/use-load";
import { ShipToFields, shippingAddressOf } from "./ship-to-fields";

type Status = Schemas["OrderStatus"];
type OrderType = Schemas["OrderType"];
export const SALES_STATUSES: Status[] = [
  "pending",
  "confirmed",
  "picking",
  "packed",
  "partially_shipped",
  "shipped",
  "delivered",
  "cancelled",
];
export const PURCHASE_STATUSES: Status[] = [
  "draft",
  "ordered",
  "partially_received",
  "received",
  "cancelled",
];

/** Sales and purchase orders: type, status and (a 3PL's) merchant filters, search by number, customer or supplier. */
export function Orders() {
  useDocumentTitle("Orders");
  const { route } = useLocation();
  const { values, page, show } = useUrlFilters(["type", "status", "search", "merchant"] as const);
  const warehouses = useWarehouses();
  const merchants = useMerchantChoice();
  const [creating, setCreating] = useState<OrderType | null>(null);
  const money = useMoney();
  const orders = useLoad(
    () =>
      unwrap(
        api.GET("/api/v1/orders", {
          params: {
            query: {
              page,
              pageSize: 25,
              ...(values.type && { type: values.type as OrderType }),
              ...(values.status && { status: values.status as Status }),
              ...(values.search && { search: values.search }),
              ...(values.merchant && { merchantId: values.merchant }),
            },
          },
        }),
      ),
    [page, values.type, values.status, values.search, values.merchant],
  );
  const statuses =
    values.type === "purchase"
      ? PURCHASE_STATUSES
      : values.type === "sales"
        ? SALES_STATUSES
        : [...SALES_STATUSES, ...PURCHASE_STATUSES.filter((s) => s !== "cancelled")];
  return (
    <>
      <h1 tabIndex={-1}>Orders</h1>
      <div class="toolbar">
        <button type="button" class="button button-primary" onClick={() => setCreating("sales")}>
          New sales order
        </button>
        <button type="button" class="button" onClick={() => setCreating("purchase")}>
          New purchase order
        </button>
      </div>
      <form
        class="filters"
        aria-label="Filter orders"
        onSubmit={(event) => {
          const f = filterFields(event);
          show({
            type: f.type ?? "",
            status: f.status ?? "",
            search: f.search ?? "",
            merchant: f.merchant ?? "",
            page: 1,
          });
        }}
      >
        <SelectField
          label="Type"
          name="type"
          empty="Sales and purchase"
          choices={[
            { value: "sales", label: "Sales" },
            { value: "purchase", label: "Purchase" },
          ]}
          initial={values.type}
        />
        <StatusFilter statuses={statuses} initial={values.status} />
        <MerchantField name="merchant" empty="Every owner" initial={values.merchant} />
        <label class="field">
          <span>Search</span>
          <input
            name="search"
            type="search"
            defaultValue={values.search}
            placeholder="Number, supplier…"
            maxLength={100}
          />
        </label>
        <button type="submit" class="button button-primary">
          Apply
        </button>
      </form>
      <LoadedList load={orders} empty="No orders match." onPage={(next) => show({ page: next })}>
        {(list) => (
          <Table
            label="Orders"
            columns={[
              "Number",
              "Type",
              "Status",
              "Party",
              "Warehouse",
              ...(merchants ? ["Merchant"] : []),
              { label: "Units", number: true },
              { label: "Total", number: true },
              "Created",
            ]}
          >
            {list.items.map((order) => (
              <tr key={order.id}>
                <td>
                  <a href={`/app/orders/${order.id}`}>{order.number}</a>
                </td>
                <td>{order.type}</td>
                <td>
                  <span class={`badge status-${order.status}`}>{statusLabel(order.status)}</span>
                </td>
                <td>
                  {order.supplier ??
                    order.customerName ??
                    (order.customerId ? `Customer ${order.customerId.slice(-6)}` : "—")}
                </td>
                <td>{codeOf(warehouses.data, order.warehouseId)}</td>
                {merchants && <td>{codeOf(merchants, order.merchantId)}</td>}
                <td class="number">{formatInteger(order.totals.quantity)}</td>
                <td class="number">{money(order.totals.totalExact)}</td>
                <td>{formatDateTime(order.createdAt)}</td>
              </tr>
            ))}
          </Table>
        )}
      </LoadedList>
      {creating && (
        <NewOrderDialog
          type={creating}
          onClose={() => setCreating(null)}
          onCreated={(id) => route(`/app/orders/${id}`)}
        />
      )}
    </>
  );
}

interface LineDraft {
  code: string;
  quantity: string;
  amount: string;
}
const blankLine = (): LineDraft => ({ code: "", quantity: "1", amount: "" });

/**
 * A new sales order (customer, address, lines) or purchase order (supplier, warehouse, lines). A 3PL says whose
 * goods it is for (Merchant): the lines' codes are that owner's products, as the API takes an order of one owner's.
 */
function NewOrderDialog({
  type,
  onClose,
  onCreated,
}: {
  type: OrderType;
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const warehouses = useWarehouses();
  const merchants = useMerchantChoice();
  const [lines, setLines] = useState<LineDraft[]>([blankLine()]);
  const setLine = (index: number, change: Partial<LineDraft>) =>
    setLines(lines.map((line, i) => (i === index ? { ...line, ...change } : line)));
  const submit = useSubmit(async (form: HTMLFormElement) => {
    const fields = Object.fromEntries(
      [...new FormData(form).entries()].map(([k, v]) => [k, String(v).trim()]),
    );
    // Each line's SKU or barcode becomes its product; an unknown code stops here with its own message.
    const owner = chosenOwner(fields, merchants);
    const resolved = await Promise.all(
      lines
        .filter((l) => l.code.trim())
        .map(async (line) => {
          const product = await productByCode(line.code, owner);
          const amount =
            line.amount === "" ? (type === "sales" ? product.price : product.cost) : Number(line.amount);
          return { productId: product.id, quantity: Number(line.quantity), amount: amount ?? 0 };
        }),
    );
    const order =
      type === "sales"
        ? await unwrap(
            api.POST("/api/v1/orders/sales", {
              body: {
                customerId: fields.customerId || crypto.randomUUID(),
                ...(fields.warehouseId && { warehouseId: fields.warehouseId }),
                lines: resolved.map((l) => ({
                  productId: l.productId,
                  quantity: l.quantity,
                  price: l.amount,
                })),
                ...(fields.customerName && { customerName: fields.customerName }),
                shippingAddress: shippingAddressOf(fields),
                ...(fields.notes && { notes: fields.notes }),
              },
            }),
          )
        : await unwrap(
            api.POST("/api/v1/orders/purchase", {
              body: {
                supplier: fields.supplier ?? "",
                warehouseId: fields.warehouseId ?? "",
                lines: resolved.map((l) => ({
                  productId: l.productId,
                  quantity: l.quantity,
                  cost: l.amount,
                })),
                ...(fields.expectedAt && { expectedAt: `${fields.expectedAt}T00:00:00.000Z` }),
                ...(fields.notes && { notes: fields.notes }),
              },
            }),
          );
    onCreated(order.id);
  });
  return (
    <Modal title={type === "sales" ? "New sales order" : "New purchase order"} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit.run(event.currentTarget);
        }}
      >
        <MerchantField empty="Any (the products' owner)" ownChoice initial="" />
        {type === "sales" ? (
          <>
            <div class="field-row">
              <label class="field">
                <span>Customer name (optional)</span>
                <input name="customerName" maxLength={200} />
              </label>
              <label class="field">
                <span>Customer id (optional)</span>
                <input name="customerId" maxLength={36} pattern="[0-9a-fA-F-]{36}" title="A UUID" />
              </label>
            </div>
            <ShipToFields />
          </>
        ) : (
          <>
            <label class="field">
              <span>Supplier</span>
              <input name="supplier" required maxLength={200} />
            </label>
            <label class="field">
              <span>Expected on (optional)</span>
              <input name="expectedAt" type="date" />
            </label>
          </>
        )}
        <SelectField
          label={`Warehouse${type === "sales" ? " (optional)" : ""}`}
          name="warehouseId"
          required={type === "purchase"}
          empty={type === "sales" ? "Any" : "Choose…"}
          choices={warehouseChoices(warehouses.data)}
        />
        <fieldset class="field">
          <legend>Lines</legend>
          {lines.map((line, index) => (
            <div class="field-row" key={index}>
              <label class="field">
                <span>SKU or barcode</span>
                <input
                  value={line.code}
                  required={index === 0}
                  onInput={(e) => setLine(index, { code: e.currentTarget.value })}
                />
              </label>
              <label class="field narrow-field">
                <span>Quantity</span>
                <input
                  type="number"
                  min={1}
                  step={1}
                  inputMode="numeric"
                  value={line.quantity}
                  onInput={(e) => setLine(index, { quantity: e.currentTarget.value })}
                />
              </label>
              <label class="field narrow-field">
                <span>{type === "sales" ? "Price" : "Cost"}</span>
                <input
                  type="number"
                  min={0}
                  step="0.01"
                  inputMode="decimal"
                  value={line.amount}
                  placeholder="list"
                  onInput={(e) => setLine(index, { amount: e.currentTarget.value })}
                />
              </label>
            </div>
          ))}
          <button type="button" class="button" onClick={() => setLines([...lines, blankLine()])}>
            Add line
          </button>
        </fieldset>
        <label class="field">
          <span>Notes (optional)</span>
          <input name="notes" maxLength={1000} />
        </label>
        <DialogActions submit={submit} submitLabel="Create order" onClose={onClose} />
      </form>
    </Modal>
  );
}
