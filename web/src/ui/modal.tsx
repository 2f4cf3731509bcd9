import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { ErrorMessage } from "./error-message";

const FOCUSABLE =
  "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary";

/** Tab past the last control comes back to the first (and Shift+Tab the other way): focus stays in the dialog. */
function keepFocusInside(event: KeyboardEvent) {
  if (event.key !== "Tab") return;
  const dialog = event.currentTarget as HTMLDialogElement;
  const controls = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * A modal dialog on the native <dialog> element: role dialog, the rest of the page inert, focus kept inside,
 * Escape closes it, and focus returns to the control that opened it (also when the dialog is unmounted).
 */
export function Modal({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    dialog?.showModal();
    return () => {
      dialog?.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class="modal"
      aria-labelledby={titleId}
      // Escape closes the native dialog (the browser decides when, see CloseWatcher); follow it.
      onClose={onClose}
      onKeyDown={keepFocusInside}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

/** Asks before a destructive action; the confirming button carries the action's name (e.g. `Revoke`). */
export function ConfirmDialog({
  title,
  confirmLabel,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <Modal title={title} onClose={onClose}>
      {children}
      <ErrorMessage error={error} />
      <div class="actions">
        <button type="button" class="button" onClick={onClose} disabled={busy} autofocus>
          Cancel
        </button>
        <button type="button" class="button button-danger" onClick={confirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}

/**
 * A button for an action that cannot be undone (dispatch, ship, cancel, approve, reject): it asks first, in a
 * dialog that says what will happen (`children`), and acts only on the dialog's own button.
 */
export function ConfirmButton({
  label,
  title,
  confirmLabel = label,
  danger = false,
  disabled = false,
  onConfirm,
  children,
}: {
  label: string;
  title: string;
  confirmLabel?: string;
  danger?: boolean;
  disabled?: boolean;
  onConfirm: () => Promise<unknown>;
  children: ComponentChildren;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button
        type="button"
        class={danger ? "button button-danger" : "button"}
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
      {asking && (
        <ConfirmDialog
          title={title}
          confirmLabel={confirmLabel}
          onConfirm={onConfirm}
          onClose={() => setAsking(false)}
        >
          {children}
        </ConfirmDialog>
      )}
    </>
  );
}
