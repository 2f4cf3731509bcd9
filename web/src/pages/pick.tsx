import { useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { FloorChoices, useStatusPages } from "../ui/floor-choices";
import { fieldsOf, useSubmit } from "../ui/form";
import { DialogActions } from "../ui/form-dialog";
import { formatInteger, statusLabel } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { codeOf, useWarehouses } from "../ui/lookups";
import { Modal } from "../ui/modal";
import { type Match, resolveCode, ScanField } from "../ui/scan-field";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";
import { pickListName } from "./pick-lists";

type PickList = Schemas["PickList"];
type Line = PickList["lines"][number];

/** The floor's Pick screen: without a pick list, the ones waiting to be picked; with one, its scans. */
export function Pick() {
  const { params } = useRoute();
  return params.id ? <PickScans id={params.id} /> : <PickChooser />;
}

/** The pick lists waiting on the floor (in progress first, then open), as large targets. */
function PickChooser() {
  useDocumentTitle("Pick");
  const warehouses = useWarehouses();
  const lists = useStatusPages(["in_progress", "open"] as const, (status) =>
    unwrap(api.GET("/api/v1/pick-lists", { params: { query: { status, pageSize: 100 } } })),
  );
  return (
    <>
      <h1 tabIndex={-1}>Pick</h1>
      <FloorChoices
        load={lists}
        empty="Nothing to pick: every pick list is done."
        choice={(p) => ({
          id: p.id,
          href: `/app/pick/${p.id}`,
          title: pickListName(p.id),
          detail: `${codeOf(warehouses.data, p.warehouseId)} · ${statusLabel(p.status)} · ${formatInteger(
            p.totals.pickedQuantity + p.totals.shortQuantity,
          )} of ${formatInteger(p.totals.quantity)} units done`,
        })}
      />
    </>
  );
}

function PickScans({ id }: { id: string }) {
  useDocumentTitle(`Pick · ${pickListName(id)}`);
  const loaded = useLoad(
    () => unwrap(api.GET("/api/v1/pick-lists/{id}", { params: { path: { id } } })),
    [id],
  );
  return (
    <>
      <p>
        <a href="/app/pick">← Pick</a>
      </p>
      <h1 tabIndex={-1}>{pickListName(id)}</h1>
      <Loaded load={loaded}>{(pickList) => <Scanner initial={pickList} />}</Loaded>
    </>
  );
}

/** What has been scanned for the line being picked; a new line starts from its location again. */
interface Scans {
  lineId: string;
  location?: string;
  product?: string;
  lotNumber?: string;
}

type Step = "location" | "product" | "lot" | "quantity";
const PROMPTS: Record<Step, string> = {
  location: "Scan location",
  product: "Scan product",
  lot: "Scan lot",
  quantity: "Quantity",
};

const remainingOf = (line: Line) => line.quantity - line.pickedQuantity - line.shortQuantity;

function stepOf(line: Line, scans: Scans): Step {
  if (!scans.location) return "location";
  if (!scans.product) return "product";
  if (line.lotNumber && !scans.lotNumber) return "lot";
  return "quantity";
}

/** Whether a scan is what the line expects at this step; the pick itself is checked again by the API. */
function confirms(step: Exclude<Step, "quantity">, line: Line, matches: Match[]): boolean {
  return matches.some((m) =>
    step === "location"
      ? m.type === "location" && m.location.id === line.locationId
      : step === "product"
        ? (m.type === "product" || m.type === "packaging") && m.product.id === line.productId
        : m.type === "lot" && m.lot.productId === line.productId && m.lot.number === line.lotNumber,
  );
}

/**
 * What a scan at the quantity step picks: a typed number up to what the line asks is that many units; anything
 * else is resolved through `GET /barcodes/{code}` first, and one of the product's packagings (a case's barcode,
 * all digits like a number) is one pack of it, which the API counts as the packaging's units. A number that names
 * no packaging is still sent as units, so more than the line asks gets the API's own refusal.
 */
async function amountOf(
  code: string,
  line: Line,
): Promise<{ quantity: number } | { packaging: string; packs: 1 }> {
  const units = /^[1-9]\d*$/.test(code) ? Number(code) : 0;
  if (units > 0 && units <= remainingOf(line)) return { quantity: units };
  const pack = (await resolveCode(code)).find(
    (m) => m.type === "packaging" && m.product.id === line.productId,
  );
  if (pack?.type === "packaging") return { packaging: pack.packaging.code, packs: 1 };
  if (units > 0) return { quantity: units };
  throw new Error(`Quantity must be a whole number of at least 1, or a pack of ${line.sku} scanned`);
}

const expectedAt = (step: Exclude<Step, "quantity">, line: Line) =>
  step === "location" ? line.locationCode : step === "product" ? line.sku : (line.lotNumber ?? "no lot");

/**
 * The pick list line by line in walking order. One field (ScanField) takes the scans: the location, the
 * product, the lot when the line has one, then the quantity. Each scan is resolved through
 * `GET /barcodes/{code}` and checked against the line at once; the quantity sends the pick, and whatever the
 * API refuses (its 409 names what it expected) is shown as it says.
 */
function Scanner({ initial }: { initial: PickList }) {
  const [pickList, setPickList] = useState(initial);
  const [scans, setScans] = useState<Scans>({ lineId: "" });
  const [shorting, setShorting] = useState(false);
  const lines = [...pickList.lines].sort((a, b) => a.lineNo - b.lineNo);
  const line = lines.find((l) => l.status === "open");
  const current: Scans = line && scans.lineId === line.id ? scans : { lineId: line?.id ?? "" };
  const step = line ? stepOf(line, current) : "location";
  const scan = useSubmit(async (code: string) => {
    if (!line) return;
    if (step === "quantity") {
      const body = {
        lineId: line.id,
        location: current.location ?? "",
        product: current.product ?? "",
        ...(await amountOf(code, line)),
        ...(current.lotNumber && { lotNumber: current.lotNumber }),
      };
      const path = { id: pickList.id };
      setPickList(await unwrap(api.POST("/api/v1/pick-lists/{id}/picks", { params: { path }, body })));
      return;
    }
    if (!confirms(step, line, await resolveCode(code))) {
      throw new Error(
        `Wrong ${step}: expected ${expectedAt(step, line)} (line ${line.lineNo}), scanned ${code}`,
      );
    }
    const field = step === "lot" ? "lotNumber" : step;
    setScans({ ...current, [field]: code });
  });
  const done = lines.filter((l) => l.status !== "open").length;

  return (
    <>
      <div class="pick-progress">
        <progress max={lines.length} value={done} aria-label="Lines done" />
        <span>
          {formatInteger(done)} of {formatInteger(lines.length)} lines done
        </span>
      </div>
      {!line ? (
        <div class="alert alert-info" role="status">
          <p>
            {pickList.status === "completed"
              ? "Pick list complete: every line is picked or short."
              : `This pick list is ${statusLabel(pickList.status)}.`}
          </p>
          <p>
            <a href="/app/pick">Pick another list</a> ·{" "}
            <a href={`/app/pick-lists/${pickList.id}`}>See its lines</a>
          </p>
        </div>
      ) : (
        <>
          <section class="pick-line" aria-label={`Line ${line.lineNo}`}>
            <p class="pick-location">{line.locationCode}</p>
            <p class="pick-product">
              {line.sku}
              {line.lotNumber && <> · lot {line.lotNumber}</>}
            </p>
            <p>
              Pick {formatInteger(remainingOf(line))}
              {line.pickedQuantity > 0 && <> ({formatInteger(line.pickedQuantity)} picked already)</>} · line{" "}
              {line.lineNo} of {lines.length}
            </p>
            <ul class="pick-checks">
              <li>{current.location ? `✓ Location ${current.location}` : "Location not scanned yet"}</li>
              <li>{current.product ? `✓ Product ${current.product}` : "Product not scanned yet"}</li>
              {line.lotNumber && (
                <li>{current.lotNumber ? `✓ Lot ${current.lotNumber}` : "Lot not scanned yet"}</li>
              )}
            </ul>
          </section>
          <ScanField
            label={PROMPTS[step]}
            numeric={step === "quantity"}
            prefill={step === "quantity" ? String(remainingOf(line)) : ""}
            next={`${line.id}:${line.pickedQuantity}`}
            busy={scan.busy}
            submitLabel={step === "quantity" ? "Confirm pick" : "Enter"}
            onScan={(code) => void scan.run(code)}
          />
          <ErrorMessage error={scan.error} />
          <div class="toolbar">
            <button
              type="button"
              class="button"
              onClick={() => {
                setScans({ lineId: line.id });
                scan.setError(null);
              }}
            >
              Scan again
            </button>
            <button type="button" class="button button-danger" onClick={() => setShorting(true)}>
              Short pick
            </button>
          </div>
          {shorting && (
            <ShortDialog
              pickList={pickList}
              line={line}
              onClose={() => setShorting(false)}
              onShorted={setPickList}
            />
          )}
        </>
      )}
    </>
  );
}

/** Fewer units in the bin than the line asks: the shortfall is recorded and its order line backordered. */
function ShortDialog({
  pickList,
  line,
  onClose,
  onShorted,
}: {
  pickList: PickList;
  line: Line;
  onClose: () => void;
  onShorted: (pickList: PickList) => void;
}) {
  const submit = useSubmit(async (fields: Record<string, string>) => {
    const body = { lineId: line.id, quantity: Number(fields.quantity), reason: fields.reason ?? "" };
    onShorted(
      await unwrap(
        api.POST("/api/v1/pick-lists/{id}/shorts", { params: { path: { id: pickList.id } }, body }),
      ),
    );
    onClose();
  });
  return (
    <Modal title={`Short pick at ${line.locationCode}`} onClose={onClose}>
      <form onSubmit={(event) => void submit.run(fieldsOf(event))}>
        <p>
          {line.sku}: {formatInteger(remainingOf(line))} still to pick on line {line.lineNo}.
        </p>
        <label class="field">
          <span>Units short</span>
          <input
            name="quantity"
            type="number"
            required
            min={1}
            max={remainingOf(line)}
            step={1}
            inputMode="numeric"
            value={remainingOf(line)}
          />
        </label>
        <label class="field">
          <span>Reason</span>
          <input name="reason" required maxLength={200} placeholder="bin empty" />
        </label>
        <DialogActions submit={submit} submitLabel="Record short" onClose={onClose} danger />
      </form>
    </Modal>
  );
}
