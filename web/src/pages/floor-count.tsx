import { useState } from "preact/hooks";
import { useLocation, useRoute } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import type { SavedWork } from "../offline/db";
import { FloorStatus, RefusedWrites, SavedOnDevice } from "../offline/floor-status";
import { enqueue, sendWaiting, useWrites, writesOf } from "../offline/queue";
import { useWork } from "../offline/work";
import { resolverOf, type ScanMatch } from "../scan/known";
import { useScanPipeline } from "../scan/pipeline";
import { amountOf, unitOf } from "../scan/quantity";
import type { Scan } from "../scan/read-scan";
import { resolveCode } from "../scan/resolve";
import { FloorChoices, useStatusPages } from "../ui/floor-choices";
import { formatDateTime, formatInteger } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { codeOf, locationsOf, useWarehouses } from "../ui/lookups";
import { ConfirmDialog } from "../ui/modal";
import { type Product, productsOf } from "../ui/products-lookup";
import { focusScanField, ScanField } from "../ui/scan-field";
import { useDocumentTitle } from "../ui/title";

type Count = Schemas["InventoryCount"];
type CountLine = Schemas["InventoryCountLine"];
type Place = { id: string; code: string };

/** The floor's Count screen: without a count, the open ones (or a bin to count); with one, its scans. */
export function FloorCount() {
  const { params } = useRoute();
  return params.id ? <CountScans id={params.id} /> : <CountChooser />;
}

const countName = (id: string) => `Count ${id.slice(-6)}`;

/** The open counts as large targets, and a bin scanned to start a count of it alone. */
function CountChooser() {
  useDocumentTitle("Count");
  const { route } = useLocation();
  const warehouses = useWarehouses();
  const counts = useStatusPages(["open"] as const, (status) =>
    unwrap(api.GET("/api/v1/inventory/counts", { params: { query: { status, pageSize: 100 } } })),
  );
  const pipeline = useScanPipeline(async (scan: Scan) => {
    const location = (await resolveCode(scan.code)).find((m) => m.type === "location");
    if (location?.type !== "location") throw new Error(`${scan.raw} is not a location`);
    const count = await unwrap(
      api.POST("/api/v1/inventory/counts", { body: { locationIds: [location.location.id] } }),
    );
    route(`/app/count/${count.id}`);
  });
  return (
    <>
      <h1 tabIndex={-1}>Count</h1>
      <SavedOnDevice kind="count" />
      <ScanField label="Scan a bin to count it" next="bin" pipeline={pipeline} submitLabel="Count bin" />
      <h2>Open counts</h2>
      <FloorChoices
        load={counts}
        empty="No count is open: scan a bin to start one."
        choice={(c) => ({
          id: c.id,
          href: `/app/count/${c.id}`,
          title: countName(c.id),
          detail: `${c.warehouseId ? codeOf(warehouses.data, c.warehouseId) : "Chosen bins"} · started ${formatDateTime(c.createdAt)}`,
        })}
      />
    </>
  );
}

/** A count with what its screen needs without the network: the products it lists, the locations it takes. */
interface CountWork {
  count: Count;
  products: Product[];
  locations: { id: string; code: string; warehouseId: string }[];
}

/** What this device counted of one line (product, location, lot): units, or the serial numbers found. */
interface Tally {
  productId: string;
  locationId: string;
  lotNumber?: string;
  counted: number;
  serialNumbers?: string[];
}

/**
 * What this device counted in a count, line by line. A line's tally is what the counter found there on this
 * device: it replaces whatever was counted before (the API's rule: the last value wins), so a second visit adds
 * to this device's own tally, never to someone else's.
 */
interface CountDevice {
  tallies: Record<string, Tally>;
}

async function loadCountWork(id: string): Promise<CountWork> {
  const count = await unwrap(api.GET("/api/v1/inventory/counts/{id}", { params: { path: { id } } }));
  const [products, locations] = await Promise.all([
    productsOf(count.lines.map((l) => l.productId)),
    locationsOf(count.warehouseId ?? ""),
  ]);
  const inScope = locations.filter((l) => !count.locationIds || count.locationIds.includes(l.id));
  return {
    count,
    products,
    locations: inScope.map((l) => ({ id: l.id, code: l.code, warehouseId: l.warehouseId })),
  };
}

function CountScans({ id }: { id: string }) {
  useDocumentTitle(`Count · ${countName(id)}`);
  const work = useWork<CountWork, CountDevice>(
    `count:${id}`,
    () => countName(id),
    () => loadCountWork(id),
    {
      tallies: {},
    },
  );
  return (
    <>
      <p>
        <a href="/app/count">← Count</a>
      </p>
      <h1 tabIndex={-1}>{countName(id)}</h1>
      <Loaded load={work}>
        {(saved) =>
          saved.data.count.status === "open" ? (
            <Counter work={saved} offline={work.offline} />
          ) : (
            <div class="alert alert-info" role="status">
              <p>This count is {saved.data.count.status}: nothing more to count.</p>
              <p>
                <a href="/app/count">Count something else</a> ·{" "}
                <a href={`/app/counts/${id}`}>See the count</a>
              </p>
            </div>
          )
        }
      </Loaded>
    </>
  );
}

const keyOf = (productId: string, locationId: string, lotNumber?: string | null) =>
  `${productId}:${locationId}:${lotNumber ?? ""}`;

type Step = "location" | "product" | "lot" | "serial" | "quantity";

/**
 * A count scan by scan: the location, the product (its barcode or SKU, a case's barcode or a GS1 code, which may
 * carry the lot), the lot for a lot-tracked product, then the quantity: a typed number adds that many, a scan
 * of the product adds one unit and of a case its units, Enter on nothing ends the product. A serial-tracked
 * product asks each unit's serial number instead. Every change is sent at once as the line's counted total
 * (`PUT /inventory/counts/{id}/lines`). Blind: what the stock should be is hidden unless asked for.
 */
function Counter({ work, offline }: { work: SavedWork<CountWork, CountDevice>; offline: boolean }) {
  const { route } = useLocation();
  const { data, subject } = work;
  const { count } = data;
  const writes = useWrites(subject);
  const [found, setFound] = useState<Product[]>([]);
  const products = new Map([...data.products, ...found].map((p) => [p.id, p]));
  const [location, setLocation] = useState<Place | null>(null);
  const [product, setProduct] = useState<Product | null>(null);
  const [lotNumber, setLotNumber] = useState<string | null>(null);
  const [showExpected, setShowExpected] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const { tallies } = work.device;
  const resolve = resolverOf({
    products: [...products.values()],
    locations: data.locations,
    lots: count.lines.flatMap((l) =>
      l.lotNumber ? [{ number: l.lotNumber, productId: l.productId, expiresAt: null }] : [],
    ),
  });
  const step: Step = !location
    ? "location"
    : !product
      ? "product"
      : product.tracking === "lot" && !lotNumber
        ? "lot"
        : product.tracking === "serial"
          ? "serial"
          : "quantity";
  const tally = location && product ? tallies[keyOf(product.id, location.id, lotNumber)] : undefined;

  const inScope = (m: ScanMatch) =>
    m.type === "location" &&
    (count.locationIds
      ? count.locationIds.includes(m.location.id)
      : m.location.warehouseId === count.warehouseId);

  /** The line's new total, stored on the device with the write that sends it (in one transaction). */
  const record = async (next: Tally) => {
    const line = {
      productId: next.productId,
      locationId: next.locationId,
      ...(next.lotNumber && { lotNumber: next.lotNumber }),
      // The API asks for counted on every line; a serial-tracked line names its serials too (as many).
      counted: next.counted,
      ...(next.serialNumbers && { serialNumbers: next.serialNumbers }),
    };
    const where = data.locations.find((l) => l.id === next.locationId)?.code ?? "";
    const sku = products.get(next.productId)?.sku ?? "";
    await enqueue(
      {
        kind: "count-lines",
        subject,
        id: count.id,
        body: { lines: [line] },
        effect: null,
        label: `Count ${formatInteger(next.counted)} ${sku}${next.lotNumber ? ` lot ${next.lotNumber}` : ""} at ${where}`,
        undo: `Count ${sku} at ${where} again.`,
      },
      {
        subject,
        change: (state) => {
          const device = state as CountDevice;
          return {
            tallies: { ...device.tallies, [keyOf(next.productId, next.locationId, next.lotNumber)]: next },
          };
        },
      },
    );
  };

  /** The product a scan names (read once for its tracking and packagings when the count did not list it). */
  const productOf = async (matches: ScanMatch[]): Promise<Product | undefined> => {
    const match = matches.find((m) => m.type === "product" || m.type === "packaging");
    if (!match || !("product" in match)) return undefined;
    const known = products.get(match.product.id);
    if (known) return known;
    const read = await unwrap(
      api.GET("/api/v1/products/{id}", { params: { path: { id: match.product.id } } }),
    );
    setFound([...found, read]);
    return read;
  };

  /** A scan that names another location of the count or another product moves on to it. */
  const moveOn = async (scan: Scan, matches: ScanMatch[]): Promise<string | undefined> => {
    const place = matches.find(inScope);
    if (place?.type === "location") {
      setLocation(place.location);
      setProduct(null);
      setLotNumber(null);
      return `At ${place.location.code}`;
    }
    const named = await productOf(matches);
    if (!named) return undefined;
    const lot = scan.gs1?.lot;
    if (lot && named.tracking !== "lot") throw new Error(`${named.sku} has no lots: scanned lot ${lot}`);
    setProduct(named);
    setLotNumber(lot ?? null);
    return "";
  };

  const pipeline = useScanPipeline(async (scan: Scan) => {
    if (step === "location") {
      const place = (await resolve(scan.code)).find(inScope);
      if (place?.type !== "location") throw new Error(`${scan.raw} is not a location of this count`);
      setLocation(place.location);
      return;
    }
    if (!location) return;
    if (step === "product") {
      const matches = await resolve(scan.code);
      const moved = await moveOn(scan, matches);
      if (moved === undefined) throw new Error(`${scan.raw} names no product or location of this count`);
      return moved || undefined;
    }
    if (!product) return;
    const current = tally ?? { productId: product.id, locationId: location.id, counted: 0 };
    if (step === "lot") {
      setLotNumber(scan.gs1?.lot ?? scan.raw);
      return;
    }
    const lot = lotNumber ?? undefined;
    if (scan.raw === "") {
      setProduct(null);
      setLotNumber(null);
      return `${product.sku} done: ${formatInteger(current.counted)} counted at ${location.code}`;
    }
    if (step === "serial") {
      const matches = await resolve(scan.code);
      if (
        matches.some(
          (m) => m.type === "location" || (m.type !== "lot" && "product" in m && m.product.id !== product.id),
        )
      )
        return moveOn(scan, matches);
      const serial = scan.gs1?.serial ?? scan.raw;
      if (serial === product.sku || serial === product.barcode)
        throw new Error(`That is ${product.sku} itself: scan the serial number on the unit`);
      const serials = current.serialNumbers ?? [];
      if (serial === "0" && serials.length === 0) {
        // None found here: the line is counted with no serial number.
        await record({ ...current, lotNumber: lot, serialNumbers: [], counted: 0 });
        setProduct(null);
        setLotNumber(null);
        return `${product.sku}: none counted at ${location.code}`;
      }
      if (serials.includes(serial)) throw new Error(`Serial number ${serial} is counted here already`);
      const serialNumbers = [...serials, serial];
      await record({ ...current, lotNumber: lot, serialNumbers, counted: serialNumbers.length });
      return `${product.sku} serial ${serial}: ${serialNumbers.length} counted at ${location.code}`;
    }
    // The quantity: a number adds that many and ends the product; a unit or a case scanned adds and stays.
    const typed = scan.gs1 === null && /^\d{1,10}$/.test(scan.raw) ? Number(scan.raw) : -1;
    if (typed === 0) {
      await record({ ...current, lotNumber: lot });
      setProduct(null);
      setLotNumber(null);
      return `${product.sku}: ${formatInteger(current.counted)} counted at ${location.code}`;
    }
    const matches = typed > 0 ? [] : await resolve(scan.code);
    if (typed < 0 && !unitOf(matches, product.id)) {
      const moved = await moveOn(scan, matches);
      if (moved !== undefined) return moved || undefined;
    }
    const amount = await amountOf(scan, product, Number.MAX_SAFE_INTEGER, async () => matches);
    const counted = current.counted + amount.units;
    await record({ ...current, lotNumber: lot, counted });
    if (typed > 0) {
      setProduct(null);
      setLotNumber(null);
    }
    return `${product.sku}: ${formatInteger(counted)} counted at ${location.code}`;
  });

  /** Submitted after every line this device counted (the writes go in order); offline, when the network is back. */
  const submit = async () => {
    await enqueue({
      kind: "count-submit",
      subject,
      id: count.id,
      body: null,
      effect: null,
      label: `Submit ${countName(count.id)}`,
      undo: "Ask the office to look at the count.",
    });
    await sendWaiting();
    if ((await writesOf(subject)).length === 0) route(`/app/counts/${count.id}`);
  };
  const lines = count.lines;
  const places = [...new Map(lines.map((l) => [l.locationId, l.locationCode])).entries()];
  const countedAt = (locationId: string) =>
    Object.values(tallies).filter((t) => t.locationId === locationId).length;
  const label =
    step === "location"
      ? "Scan location"
      : step === "product"
        ? `Scan product at ${location?.code}`
        : step === "lot"
          ? `Scan lot of ${product?.sku}`
          : step === "serial"
            ? `Serial number of ${product?.sku} (nothing: done${tally?.serialNumbers?.length ? "" : "; 0: none here"})`
            : `Quantity of ${product?.sku}${lotNumber ? ` lot ${lotNumber}` : ""} (or scan each)`;
  const submitted = writes.waiting.some((w) => w.kind === "count-submit");
  if (submitted)
    return (
      <div class="alert alert-info" role="status">
        <FloorStatus offline={offline} waiting={writes.waiting.length} />
        <p>
          {countName(count.id)} is submitted on this device: it reaches the server with its counts when the
          network is back.
        </p>
      </div>
    );
  return (
    <>
      <FloorStatus offline={offline} waiting={writes.waiting.length} />
      <RefusedWrites refused={writes.refused} />
      <section class="pick-line" aria-label="Counting">
        <p class="pick-location">{location?.code ?? "Scan a location"}</p>
        {product && (
          <>
            <p class="pick-product">
              {product.sku}
              {lotNumber && <> · lot {lotNumber}</>}
            </p>
            <p class="pick-name">{product.name}</p>
            <p>
              Counted here: {formatInteger(tally?.counted ?? 0)}
              {tally?.serialNumbers && tally.serialNumbers.length > 0 && (
                <> ({tally.serialNumbers.join(", ")})</>
              )}
            </p>
          </>
        )}
      </section>
      <ScanField
        label={label}
        numeric={step === "quantity"}
        next={`${location?.id}:${product?.id}:${lotNumber}`}
        pipeline={pipeline}
        paused={submitting}
        allowEmpty={step === "quantity" || step === "serial"}
        submitLabel="Enter"
      />
      <div class="toolbar">
        <button
          type="button"
          class="button"
          onClick={() => {
            setProduct(null);
            setLotNumber(null);
            pipeline.clear();
            focusScanField();
          }}
        >
          Next product
        </button>
        <button
          type="button"
          class="button button-primary"
          disabled={writes.refused.length > 0}
          aria-describedby={writes.refused.length > 0 ? "submit-waits" : undefined}
          onClick={() => setSubmitting(true)}
        >
          Submit count
        </button>
      </div>
      {writes.refused.length > 0 && (
        <p id="submit-waits" class="muted">
          Submit waits until every refused scan above is dealt with: the office would approve the count
          without those lines.
        </p>
      )}
      <label class="check">
        <input
          type="checkbox"
          checked={showExpected}
          onChange={(event) => {
            setShowExpected(event.currentTarget.checked);
            focusScanField();
          }}
        />
        <span>Show expected quantities (a blind count hides them)</span>
      </label>
      <h2>Locations</h2>
      <ul class="receive-open">
        {places.map(([id, code]) => (
          <li key={id}>
            {code}: {countedAt(id) > 0 ? `${countedAt(id)} counted on this device` : "not counted here yet"}
            {showExpected && (
              <ul>
                {lines
                  .filter((l) => l.locationId === id)
                  .map((l: CountLine) => (
                    <li key={keyOf(l.productId, l.locationId, l.lotNumber)}>
                      {l.sku}
                      {l.lotNumber && ` lot ${l.lotNumber}`}: {formatInteger(l.expected)} expected
                    </li>
                  ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      {submitting && (
        <ConfirmDialog
          title={`Submit ${countName(count.id)}?`}
          confirmLabel="Submit count"
          onConfirm={submit}
          onClose={() => setSubmitting(false)}
        >
          <p>Submitted, it is counted no more: the office reviews the variances and approves them.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
