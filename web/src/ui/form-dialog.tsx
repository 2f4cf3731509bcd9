import type { ComponentChildren } from "preact";
import { ErrorMessage } from "./error-message";
import { fieldsOf, useSubmit } from "./form";
import { Modal } from "./modal";

/** A dialog around one form: its fields (`children`), the API's refusal, then Cancel and the submitting button. */
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
        <ErrorMessage error={submit.error} />
        <div class="actions">
          <button type="button" class="button" onClick={onClose} disabled={submit.busy}>
            Cancel
          </button>
          <button type="submit" class="button button-primary" disabled={submit.busy || !ready}>
            {submitLabel}
          </button>
        </div>
      </form>
    </Modal>
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
