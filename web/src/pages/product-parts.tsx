import type { ComponentChildren } from "preact";
import type { Schemas } from "../api/client";
import { type Owner, productByCode } from "../ui/products-lookup";

type Packaging = Schemas["Packaging"];

/** A kit's component as typed: the product's SKU or barcode (resolved when the form is saved) and units per kit. */
export interface ComponentRow {
  code: string;
  quantity: string;
}

/** A packaging as typed. */
export interface PackagingRow {
  code: string;
  name: string;
  quantity: string;
  barcode: string;
}

export const packagingRows = (packagings: Schemas["ProductPackaging"][]): PackagingRow[] =>
  packagings.map((p) => ({ ...p, quantity: String(p.quantity), barcode: p.barcode ?? "" }));

/**
 * The components as the API takes them: each SKU or barcode resolved to its product (a typo is named), among the
 * kit's owner's products when the form says whose the kit is.
 */
export const componentsOf = (rows: ComponentRow[], owner?: Owner): Promise<Schemas["KitComponent"][]> =>
  Promise.all(
    rows
      .filter((row) => row.code.trim())
      .map(async (row) => ({
        productId: (await productByCode(row.code, owner)).id,
        quantity: Number(row.quantity),
      })),
  );

export const packagingsOf = (rows: PackagingRow[]): Packaging[] =>
  rows
    .filter((row) => row.code.trim())
    .map((row) => ({
      code: row.code.trim(),
      name: row.name.trim(),
      quantity: Number(row.quantity),
      ...(row.barcode.trim() && { barcode: row.barcode.trim() }),
    }));

/**
 * Rows of small fields edited in place (a kit's components, a product's packagings): each row's fields, Remove,
 * and Add under them. `fields` draws one row's inputs; `blank` is a new row.
 */
export function RowsEditor<R>({
  legend,
  noun,
  rows,
  blank,
  onChange,
  fields,
}: {
  legend: string;
  noun: string;
  rows: R[];
  blank: R;
  onChange: (rows: R[]) => void;
  fields: (row: R, set: (change: Partial<R>) => void, index: number) => ComponentChildren;
}) {
  return (
    <fieldset class="field receipt">
      <legend>{legend}</legend>
      {rows.map((row, index) => (
        <div key={index} class="field-row">
          {fields(
            row,
            (change) => onChange(rows.map((r, i) => (i === index ? { ...r, ...change } : r))),
            index,
          )}
          <button
            type="button"
            class="button row-remove"
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            Remove {noun} {index + 1}
          </button>
        </div>
      ))}
      <button type="button" class="button" onClick={() => onChange([...rows, blank])}>
        Add {noun}
      </button>
    </fieldset>
  );
}

const input = (
  label: string,
  value: string,
  onInput: (value: string) => void,
  extra: Record<string, unknown> = {},
  narrow = false,
) => (
  <label class={narrow ? "field narrow-field" : "field"}>
    <span>{label}</span>
    <input value={value} onInput={(e) => onInput(e.currentTarget.value)} {...extra} />
  </label>
);

const count = (min: number) => ({ type: "number", min, step: 1, inputMode: "numeric", required: true });

export function ComponentsEditor({
  rows,
  onChange,
}: {
  rows: ComponentRow[];
  onChange: (rows: ComponentRow[]) => void;
}) {
  return (
    <RowsEditor
      legend="Kit components"
      noun="component"
      rows={rows}
      blank={{ code: "", quantity: "1" }}
      onChange={onChange}
      fields={(row, set, index) => (
        <>
          {input(`Component ${index + 1} SKU or barcode`, row.code, (code) => set({ code }), {
            required: true,
            maxLength: 100,
            autocomplete: "off",
          })}
          {input(
            `Units of component ${index + 1}`,
            row.quantity,
            (quantity) => set({ quantity }),
            count(1),
            true,
          )}
        </>
      )}
    />
  );
}

export function PackagingsEditor({
  rows,
  onChange,
}: {
  rows: PackagingRow[];
  onChange: (rows: PackagingRow[]) => void;
}) {
  return (
    <RowsEditor
      legend="Packagings"
      noun="packaging"
      rows={rows}
      blank={{ code: "", name: "", quantity: "", barcode: "" }}
      onChange={onChange}
      fields={(row, set, index) => (
        <>
          {input(`Packaging ${index + 1} code`, row.code, (code) => set({ code }), {
            required: true,
            maxLength: 32,
            pattern: "[A-Za-z0-9_-]{1,32}",
          })}
          {input(`Packaging ${index + 1} name`, row.name, (name) => set({ name }), {
            required: true,
            maxLength: 100,
          })}
          {input(
            `Units in packaging ${index + 1}`,
            row.quantity,
            (quantity) => set({ quantity }),
            count(2),
            true,
          )}
          {input(`Packaging ${index + 1} barcode (optional)`, row.barcode, (barcode) => set({ barcode }), {
            maxLength: 100,
            inputMode: "numeric",
          })}
        </>
      )}
    />
  );
}
