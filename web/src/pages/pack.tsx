import { useState } from "preact/hooks";
import { useLocation, useRoute } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { useScanPipeline } from "../scan/pipeline";
import type { Scan } from "../scan/read-scan";
import { resolveCode } from "../scan/resolve";
import { ErrorMessage } from "../ui/error-message";
import { FloorChoices, useStatusPages } from "../ui/floor-choices";
import { useSubmit } from "../ui/form";
import { formatInteger, statusLabel } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { type Product, useProductsById } from "../ui/products-lookup";
import { ScanField } from "../ui/scan-field";
import { choicesOf, SelectField } from "../ui/select-field";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";

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
  /** Serial numbers scanned into this package, by line id (a serial-tracked line's units are its serials). */
  serials: Record<string, string[]>;
  /** Filled by scans: the first scan empties the package's starting units, each scan then adds. */
  scanned: boolean;
}

/** Units of `lineId` in a package, as typed or scanned. */
const unitsIn = (d: Draft, lineId: string) => Number(d.quantities[lineId]) || 0;

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
  const products = useProductsById(order.lines.filter((l) => openOf(l) > 0).map((l) => l.productId));
  // The products first: a serial-tracked line starts its packages empty, so the first package must know which.
  return <Loaded load={products}>{(found) => <PackageForm order={order} products={found} />}</Loaded>;
}

function PackageForm({ order, products }: { order: Order; products: Map<string, Product> }) {
  const { route } = useLocation();
  const open = order.lines.filter((l) => openOf(l) > 0);
  const sku = (productId: string) => products.get(productId)?.sku ?? productId.slice(0, 8);
  const serialTracked = (line: Line) => products.get(line.productId)?.tracking === "serial";
  // A serial-tracked line starts empty: its units are the serial numbers scanned.
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
        serialTracked(l)
          ? "0"
          : String(Math.max(0, openOf(l) - drafts.reduce((n, d) => n + unitsIn(d, l.id), 0))),
      ]),
    ),
    serials: {},
    scanned: false,
  });
  const [drafts, setDrafts] = useState<Draft[]>(() => [fresh(1, [])]);
  const set = (key: number, change: Partial<Draft>) =>
    setDrafts(drafts.map((d) => (d.key === key ? { ...d, ...change } : d)));
  const scanning = useScanToPack(order, open, products, drafts, setDrafts);
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
        .map((l) => {
          const serialNumbers = d.serials[l.id];
          return { orderLineId: l.id, quantity: unitsIn(d, l.id), ...(serialNumbers && { serialNumbers }) };
        })
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
    <>
      {scanning.field}
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
                    readOnly={serialTracked(line)}
                    value={d.quantities[line.id]}
                    onInput={(e) =>
                      set(d.key, { quantities: { ...d.quantities, [line.id]: e.currentTarget.value } })
                    }
                  />
                </label>
              ))}
            </div>
            {open.map(
              (line) =>
                d.serials[line.id] && (
                  <p key={line.id}>
                    Serial numbers of line {line.lineNo}: {d.serials[line.id]?.join(", ")}
                  </p>
                ),
            )}
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
    </>
  );
}

/** A serial-tracked product scanned: its units wait for their serial numbers, one scan each. */
interface AwaitingSerials {
  lineId: string;
  left: number;
  of: number;
}

/**
 * Scan to pack: the scan field above the packages adds what is scanned to the last package. Each code resolves
 * through `GET /barcodes/{code}`: a product of an open line adds one unit, one of its packagings (a case) that
 * packaging's units; a serial-tracked product then asks a serial number per unit, each a scan. A code that names
 * no product of the order, or more units than are left to pack, is refused with why, and nothing is added.
 */
function useScanToPack(
  order: Order,
  open: Line[],
  products: Map<string, Product>,
  drafts: Draft[],
  setDrafts: (drafts: Draft[]) => void,
) {
  const [awaiting, setAwaiting] = useState<AwaitingSerials | null>(null);
  const [count, setCount] = useState(0);
  const target = drafts.at(-1);
  const sku = (line: Line) => products.get(line.productId)?.sku ?? line.productId.slice(0, 8);
  /** The package being filled, emptied first if this is its first scan. */
  const into = (d: Draft): Draft =>
    d.scanned ? d : { ...d, scanned: true, quantities: Object.fromEntries(open.map((l) => [l.id, "0"])) };
  const add = (lineId: string, units: number, serial?: string) => {
    setDrafts(
      drafts.map((d) => {
        if (d !== target) return d;
        const filled = into(d);
        const serials = serial
          ? { ...filled.serials, [lineId]: [...(filled.serials[lineId] ?? []), serial] }
          : filled.serials;
        const quantities = { ...filled.quantities, [lineId]: String(unitsIn(filled, lineId) + units) };
        return { ...filled, quantities, serials };
      }),
    );
    setCount(count + 1);
  };
  const pipeline = useScanPipeline(async (scan: Scan) => {
    if (!target) return;
    if (awaiting) {
      const code = scan.gs1?.serial ?? scan.raw;
      const line = open.find((l) => l.id === awaiting.lineId);
      const product = line && products.get(line.productId);
      if (!line || !product) return;
      if (code === product.sku || code === product.barcode)
        throw new Error(`That is ${product.sku} itself: scan the serial number on the unit`);
      if (drafts.some((d) => d.serials[line.id]?.includes(code)))
        throw new Error(`Serial number ${code} is packed already`);
      add(line.id, 1, code);
      setAwaiting(awaiting.left > 1 ? { ...awaiting, left: awaiting.left - 1 } : null);
      return;
    }
    const code = scan.raw;
    const matches = await resolveCode(scan.code);
    const found = matches.flatMap((m) =>
      m.type === "product" || m.type === "packaging"
        ? open
            .filter((l) => l.productId === m.product.id)
            .map((line) => ({ line, units: m.type === "packaging" ? m.packaging.quantity : 1, match: m }))
        : [],
    );
    if (found.length === 0) {
      const named = matches.find((m) => m.type === "product" || m.type === "packaging");
      throw new Error(
        `${named && "product" in named ? named.product.sku : code} is not on order ${order.number}: it needs ${open
          .map(sku)
          .join(", ")}`,
      );
    }
    const filling = drafts.map((d) => (d === target ? into(d) : d));
    const room = (line: Line) => openOf(line) - filling.reduce((n, d) => n + unitsIn(d, line.id), 0);
    const fits = found.find(({ line, units }) => room(line) >= units);
    if (!fits) {
      const { line, units } = found[0] as (typeof found)[number];
      throw new Error(
        `Only ${formatInteger(Math.max(0, room(line)))} of ${sku(line)} left to pack: ${code} is ${formatInteger(units)}`,
      );
    }
    if (products.get(fits.line.productId)?.tracking === "serial") {
      setDrafts(filling);
      setAwaiting({ lineId: fits.line.id, left: fits.units, of: fits.units });
      return;
    }
    add(fits.line.id, fits.units);
  });
  const awaitedLine = awaiting && open.find((l) => l.id === awaiting.lineId);
  const label = awaitedLine
    ? `Serial number ${awaiting.of - awaiting.left + 1} of ${awaiting.of} for ${sku(awaitedLine)}`
    : `Scan product into package ${drafts.length}`;
  return {
    field: (
      <div class="scan-to-pack">
        <ScanField label={label} next={`${target?.key}:${count}`} pipeline={pipeline} submitLabel="Add" />
      </div>
    ),
  };
}
