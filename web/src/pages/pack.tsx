import { useState } from "preact/hooks";
import { useLocation, useRoute } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { FloorChoices, useStatusPages } from "../ui/floor-choices";
import { useSubmit } from "../ui/form";
import { formatInteger } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { useProductsById } from "../ui/products-lookup";
import { choicesOf, SelectField } from "../ui/select-field";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";
import { statusLabel } from "./orders";

type Order = Schemas["Order"];
type Line = Order["lines"][number];
type WeightUnit = NonNullable<Schemas["Weight"]>["unit"];
type LengthUnit = NonNullable<Schemas["Dimensions"]>["unit"];

/** The statuses the API ships from: picked units first (packed), then straight from reservations. */
export const PACKABLE = ["packed", "partially_shipped", "picking", "confirmed"] as const;
const WEIGHT_UNITS: WeightUnit[] = ["kg", "g", "lb", "oz"];
const LENGTH_UNITS: LengthUnit[] = ["cm", "in"];

/** Units of a sales line still to ship: ordered, less shipped and backordered. */
export const openOf = (line: Line) =>
  line.quantity - (line.shippedQuantity ?? 0) - (line.backorderedQuantity ?? 0);

/** Whether an order can be packed now: a status the API ships from, with units still open. */
export const packable = (order: Order) =>
  order.type === "sales" &&
  (PACKABLE as readonly string[]).includes(order.status) &&
  order.lines.some((l) => openOf(l) > 0);

/** The floor's Pack screen: without an order, the orders waiting to be packed; with one, its packages. */
export function Pack() {
  const { params } = useRoute();
  return params.id ? <Packing id={params.id} /> : <PackChooser />;
}

function PackChooser() {
  useDocumentTitle("Pack");
  const orders = useStatusPages(PACKABLE, (status) =>
    unwrap(api.GET("/api/v1/orders", { params: { query: { type: "sales", status, pageSize: 100 } } })),
  );
  return (
    <>
      <h1 tabIndex={-1}>Pack</h1>
      <FloorChoices
        load={orders}
        empty="Nothing to pack: no order is waiting to ship."
        choice={(order) => ({
          id: order.id,
          href: `/app/pack/${order.id}`,
          title: order.number,
          detail: `${statusLabel(order.status)} · ${formatInteger(order.totals.quantity)} units ordered`,
        })}
      />
    </>
  );
}

/** A package being packed, as typed (sent once the whole shipment is ready). */
interface Draft {
  key: number;
  packageType: string;
  weight: string;
  weightUnit: WeightUnit;
  length: string;
  width: string;
  height: string;
  lengthUnit: LengthUnit;
  /** Units of each order line in this package, by line id. */
  quantities: Record<string, string>;
}

function Packing({ id }: { id: string }) {
  const order = useLoad(() => unwrap(api.GET("/api/v1/orders/{id}", { params: { path: { id } } })), [id]);
  const title = order.data ? `Pack ${order.data.number}` : "Pack";
  useDocumentTitle(title);
  return (
    <>
      <p>
        <a href="/app/pack">← Pack</a>
      </p>
      <h1 tabIndex={-1}>{title}</h1>
      <Loaded load={order}>
        {(o) =>
          packable(o) ? (
            <Packages order={o} />
          ) : (
            <p>
              Order {o.number} is {statusLabel(o.status)} with nothing to pack.{" "}
              <a href={`/app/orders/${o.id}`}>See the order</a>
            </p>
          )
        }
      </Loaded>
    </>
  );
}

/**
 * The packages of one shipment: each with its type, weight, optional dimensions and the units of each open line
 * it holds. A new package starts with what no other package holds yet, so one package ships everything and
 * a second takes what the first leaves out. Create shipment sends them all (`POST /orders/{id}/shipments`);
 * the API takes picked units from the packing location first, then from the bins the order holds.
 */
function Packages({ order }: { order: Order }) {
  const { route } = useLocation();
  const open = order.lines.filter((l) => openOf(l) > 0);
  const products = useProductsById(open.map((l) => l.productId));
  const sku = (productId: string) => products.data?.get(productId)?.sku ?? productId.slice(0, 8);
  const fresh = (key: number, drafts: Draft[]): Draft => ({
    key,
    packageType: "",
    weight: "",
    weightUnit: "kg",
    length: "",
    width: "",
    height: "",
    lengthUnit: "cm",
    quantities: Object.fromEntries(
      open.map((l) => [
        l.id,
        String(Math.max(0, openOf(l) - drafts.reduce((n, d) => n + (Number(d.quantities[l.id]) || 0), 0))),
      ]),
    ),
  });
  const [drafts, setDrafts] = useState<Draft[]>(() => [fresh(1, [])]);
  const set = (key: number, change: Partial<Draft>) =>
    setDrafts(drafts.map((d) => (d.key === key ? { ...d, ...change } : d)));
  const submit = useSubmit(async () => {
    const packages = drafts.map((d) => ({
      ...(d.packageType.trim() && { packageType: d.packageType.trim() }),
      weight: { value: Number(d.weight), unit: d.weightUnit },
      ...(d.length &&
        d.width &&
        d.height && {
          dimensions: {
            length: Number(d.length),
            width: Number(d.width),
            height: Number(d.height),
            unit: d.lengthUnit,
          },
        }),
      lines: open
        .map((l) => ({ orderLineId: l.id, quantity: Number(d.quantities[l.id]) || 0 }))
        .filter((l) => l.quantity > 0),
    }));
    const shipment = await unwrap(
      api.POST("/api/v1/orders/{id}/shipments", { params: { path: { id: order.id } }, body: { packages } }),
    );
    route(`/app/shipments/${shipment.id}`);
  });
  const number = (label: string, value: string, onInput: (value: string) => void, required = false) => (
    <label class="field narrow-field">
      <span>{label}</span>
      <input
        type="number"
        min={0.001}
        step={0.001}
        inputMode="decimal"
        required={required}
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    </label>
  );
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit.run();
      }}
    >
      {drafts.map((d, index) => (
        <fieldset key={d.key} class="field receipt">
          <legend>Package {index + 1}</legend>
          <div class="field-row">
            <label class="field">
              <span>Package type</span>
              <input
                maxLength={50}
                placeholder="box-m"
                value={d.packageType}
                onInput={(e) => set(d.key, { packageType: e.currentTarget.value })}
              />
            </label>
            {number("Weight", d.weight, (weight) => set(d.key, { weight }), true)}
            <SelectField
              label="Weight unit"
              choices={choicesOf(WEIGHT_UNITS)}
              value={d.weightUnit}
              onChange={(unit) => set(d.key, { weightUnit: unit as WeightUnit })}
            />
          </div>
          <div class="field-row">
            {number("Length", d.length, (length) => set(d.key, { length }))}
            {number("Width", d.width, (width) => set(d.key, { width }))}
            {number("Height", d.height, (height) => set(d.key, { height }))}
            <SelectField
              label="Length unit"
              choices={choicesOf(LENGTH_UNITS)}
              value={d.lengthUnit}
              onChange={(unit) => set(d.key, { lengthUnit: unit as LengthUnit })}
            />
          </div>
          <div class="field-row">
            {open.map((line) => (
              <label key={line.id} class="field narrow-field">
                <span>
                  Line {line.lineNo}: {sku(line.productId)} ({formatInteger(openOf(line))} open)
                </span>
                <input
                  type="number"
                  min={0}
                  max={openOf(line)}
                  step={1}
                  inputMode="numeric"
                  value={d.quantities[line.id]}
                  onInput={(e) =>
                    set(d.key, { quantities: { ...d.quantities, [line.id]: e.currentTarget.value } })
                  }
                />
              </label>
            ))}
          </div>
          {drafts.length > 1 && (
            <button
              type="button"
              class="button"
              onClick={() => setDrafts(drafts.filter((other) => other.key !== d.key))}
            >
              Remove package {index + 1}
            </button>
          )}
        </fieldset>
      ))}
      <ErrorMessage error={submit.error} />
      <div class="actions">
        <button
          type="button"
          class="button"
          onClick={() => setDrafts([...drafts, fresh(Math.max(...drafts.map((d) => d.key)) + 1, drafts)])}
        >
          Add package
        </button>
        <button type="submit" class="button button-primary" disabled={submit.busy}>
          Create shipment
        </button>
      </div>
    </form>
  );
}
