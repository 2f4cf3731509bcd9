import type { ComponentChildren } from "preact";
import { ErrorMessage } from "./error-message";
import { fieldsOf, useSubmit } from "./form";
import { Modal } from "./modal";

/** A dialog around one form: its fields (`children`), then its actions. */
export function FormDialog({
  title,
  submitLabel,
  submit,
  onSubmit,
  onClose,
  ready = true,
  children,
}: {
  title: string;
  submitLabel: string;
  submit: { busy: boolean; error: unknown };
  /** False while the form lacks what it must have before it can be sent. */
  ready?: boolean;
  onSubmit: (event: SubmitEvent) => void;
  onClose: () => void;
  children: ComponentChildren;
}) {
  return (
    <Modal title={title} onClose={onClose}>
      <form onSubmit={onSubmit}>
        {children}
        <DialogActions submit={submit} submitLabel={submitLabel} onClose={onClose} ready={ready} />
      </form>
    </Modal>
  );
}

/** A dialog form's refusal as the API words it, then Cancel and the submitting button (red when `danger`). */
export function DialogActions({
  submit,
  submitLabel,
  onClose,
  danger = false,
  ready = true,
}: {
  submit: { busy: boolean; error: unknown };
  submitLabel: string;
  onClose: () => void;
  danger?: boolean;
  /** False while the form lacks what it must have before it can be sent. */
  ready?: boolean;
}) {
  return (
    <>
      <ErrorMessage error={submit.error} />
      <div class="actions">
        <button type="button" class="button" onClick={onClose} disabled={submit.busy}>
          Cancel
        </button>
        <button
          type="submit"
          class={`button ${danger ? "button-danger" : "button-primary"}`}
          disabled={submit.busy || !ready}
        >
          {submitLabel}
        </button>
      </div>
    </>
  );
}

/**
 * Creates or edits one record (a merchant, a warehouse, a location): `save` sends the form's named fields, then
 * the list reloads (`onSaved`) and the dialog closes; a refusal stays on screen as the API words it.
 */
export function EditDialog({
  title,
  submitLabel,
  save,
  onSaved,
  onClose,
  children,
}: {
  title: string;
  submitLabel: string;
  save: (fields: Record<string, string>) => Promise<unknown>;
  onSaved: () => void;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const submit = useSubmit(async (fields: Record<string, string>) => {
    await save(fields);
    onSaved();
    onClose();
  });
  return (
    <FormDialog
      title={title}
      submitLabel={submitLabel}
      submit={submit}
      onSubmit={(event) => void submit.run(fieldsOf(event))}
      onClose={onClose}
    >
      {children}
    </FormDialog>
  );
}
