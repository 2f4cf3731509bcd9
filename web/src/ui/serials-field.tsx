import { useState } from "preact/hooks";
import { api, unwrap } from "../api/client";
import { readScan } from "../scan/read-scan";
import { useLoad } from "./use-load";

/**
 * The serial numbers of a serial-tracked product's units in an office dialog: one scan (or typed number and
 * Enter) per unit, a GS1 code's serial (21) taken from it; each listed with a button to take it out again. Enter
 * adds, it does not submit the dialog. A serial scanned twice, or the product's own SKU or barcode, is refused on
 * the spot. `name` carries the list in the form (one per line) for dialogs that read their fields.
 */
export function SerialsField({
  product,
  serials,
  onChange,
  name = "serialNumbers",
}: {
  product: { sku: string; barcode: string | null };
  serials: string[];
  onChange: (serials: string[]) => void;
  name?: string;
}) {
  const [problem, setProblem] = useState("");
  const add = (field: HTMLInputElement) => {
    try {
      const scan = readScan(field.value);
      const serial = scan.gs1?.serial ?? scan.raw;
      if (!serial) return;
      if (serial === product.sku || serial === product.barcode)
        throw new Error(`That is ${product.sku} itself: scan the serial number on the unit`);
      if (serials.includes(serial)) throw new Error(`Serial number ${serial} is in the list already`);
      onChange([...serials, serial]);
      setProblem("");
      field.value = "";
    } catch (refusal) {
      setProblem(refusal instanceof Error ? refusal.message : String(refusal));
    }
  };
  return (
    <div class="field serials-field">
      <label class="field">
        <span>Serial number (scan each unit, then Enter)</span>
        <input
          autocomplete="off"
          spellcheck={false}
          maxLength={200}
          onKeyDown={(event) => {
            if (event.key !== "Enter") return;
            event.preventDefault();
            add(event.currentTarget);
          }}
        />
      </label>
      {problem && (
        <p class="alert alert-error" role="alert">
          {problem}
        </p>
      )}
      <input type="hidden" name={name} value={serials.join("\n")} />
      <p>
        {serials.length} serial {serials.length === 1 ? "number" : "numbers"}
        {serials.length > 0 && ":"}
      </p>
      {serials.length > 0 && (
        <ul class="serials">
          {serials.map((serial) => (
            <li key={serial}>
              {serial}{" "}
              <button
                type="button"
                class="button"
                aria-label={`Remove serial number ${serial}`}
                onClick={() => onChange(serials.filter((s) => s !== serial))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The serial numbers a dialog's form carried (`SerialsField`'s `name`). */
export const serialsOf = (fields: Record<string, string>, name = "serialNumbers") =>
  (fields[name] ?? "").split("\n").filter(Boolean);

/**
 * A stock change's quantity in an office dialog (Adjust, Transfer): typed, or for a serial-tracked product its
 * units' serial numbers (the quantity is their count; `signed`: added to or removed from stock). Until the
 * product is read, the typed quantity is shown. The form carries `quantity` either way.
 */
export function QuantityOrSerials({ productId, signed }: { productId: string; signed: boolean }) {
  const product = useLoad(
    () => unwrap(api.GET("/api/v1/products/{id}", { params: { path: { id: productId } } })),
    [productId],
  );
  const [serials, setSerials] = useState<string[]>([]);
  const [removing, setRemoving] = useState(false);
  if (product.data?.tracking !== "serial")
    return (
      <label class="field">
        <span>Quantity</span>
        <input
          name="quantity"
          type="number"
          step={1}
          min={signed ? undefined : 1}
          required
          inputMode="numeric"
          autofocus
        />
      </label>
    );
  return (
    <>
      {signed && (
        <label class="check">
          <input type="checkbox" checked={removing} onChange={(e) => setRemoving(e.currentTarget.checked)} />
          <span>Remove these units from stock (else they are added)</span>
        </label>
      )}
      <SerialsField product={product.data} serials={serials} onChange={setSerials} />
      <input type="hidden" name="quantity" value={String(removing ? -serials.length : serials.length)} />
    </>
  );
}

/** A dialog's serial numbers as the API's body takes them (nothing when there are none). */
export const serialsBody = (fields: Record<string, string>) => {
  const serialNumbers = serialsOf(fields);
  return serialNumbers.length > 0 ? { serialNumbers } : {};
};
