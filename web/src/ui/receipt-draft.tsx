import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { useSubmit } from "./form";
import { FormDialog } from "./form-dialog";

/** What every receipt line holds as typed: the units, where they go, the lot for a lot-tracked product. */
export interface ReceiptDraft {
  quantity: string;
  locationId: string;
  lotNumber: string;
}

/**
 * A receipt of several lines typed at once (a purchase order's, a return's): one draft per open line, starting
 * from `start`; `send` gets the lines with units, each turned into the API's line by `toLine` (with the units as
 * a number and the lot trimmed, when there is one), then `onDone` runs and the dialog closes.
 */
export function useReceiptDraft<L extends { id: string }, R extends ReceiptDraft, B>({
  open,
  start,
  toLine,
  send,
  onDone,
  onClose,
}: {
  open: L[];
  start: (line: L) => R;
  toLine: (line: L, receipt: R, typed: { quantity: number; lotNumber?: string }) => B;
  send: (lines: B[]) => Promise<unknown>;
  onDone: () => void;
  onClose: () => void;
}) {
  const [receipts, setReceipts] = useState<Record<string, R>>(() =>
    Object.fromEntries(open.map((line) => [line.id, start(line)])),
  );
  const draftOf = (line: L) => receipts[line.id] as R;
  const set = (line: L, change: Partial<R>) =>
    setReceipts({ ...receipts, [line.id]: { ...draftOf(line), ...change } });
  const submit = useSubmit(async () => {
    const lines = open
      .filter((line) => Number(draftOf(line).quantity) > 0)
      .map((line) => {
        const receipt = draftOf(line);
        const lotNumber = receipt.lotNumber.trim();
        return toLine(line, receipt, { quantity: Number(receipt.quantity), ...(lotNumber && { lotNumber }) });
      });
    await send(lines);
    onDone();
    onClose();
  });
  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    void submit.run();
  };
  return { draftOf, set, submit, onSubmit, onClose };
}

/** A receipt draft's dialog: one fieldset per open line, headed by `legend` and holding `fields`. */
export function ReceiptDialog<L extends { id: string }, R extends ReceiptDraft>({
  title,
  submitLabel,
  open,
  draft,
  legend,
  fields,
}: {
  title: string;
  submitLabel: string;
  open: L[];
  draft: ReturnType<typeof useReceiptDraft<L, R, unknown>>;
  legend: (line: L) => ComponentChildren;
  fields: (line: L, receipt: R) => ComponentChildren;
}) {
  return (
    <FormDialog
      title={title}
      submitLabel={submitLabel}
      submit={draft.submit}
      onSubmit={draft.onSubmit}
      onClose={draft.onClose}
    >
      {open.map((line) => (
        <fieldset key={line.id} class="field receipt">
          <legend>{legend(line)}</legend>
          {fields(line, draft.draftOf(line))}
        </fieldset>
      ))}
    </FormDialog>
  );
}

/** A receipt line's units. */
export function ReceiptQuantity({ value, onInput }: { value: string; onInput: (value: string) => void }) {
  return (
    <label class="field narrow-field">
      <span>Quantity</span>
      <input
        type="number"
        min={0}
        step={1}
        inputMode="numeric"
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    </label>
  );
}

/** A lot-tracked line's lot number (required while the line receives units). */
export function ReceiptLot({
  value,
  required,
  onInput,
}: {
  value: string;
  required: boolean;
  onInput: (value: string) => void;
}) {
  return (
    <label class="field">
      <span>Lot number</span>
      <input
        required={required}
        maxLength={100}
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    </label>
  );
}
