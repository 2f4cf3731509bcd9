import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, type Schemas, unwrap } from "../api/client";
import { CameraScan, cameraOffered } from "./camera-scan";
import { fieldsOf } from "./form";

export type Match = Schemas["BarcodeResolution"]["matches"][number];

/** Every match of a scanned code (`GET /barcodes/{code}`); a code that names nothing has none. */
export async function resolveCode(code: string): Promise<Match[]> {
  try {
    const found = await unwrap(api.GET("/api/v1/barcodes/{code}", { params: { path: { code } } }));
    return found.matches;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

/**
 * The floor screens' one field: it keeps the focus, so a keyboard-wedge scanner (its characters, then Enter)
 * drives the screen without a tap. Its label says what it wants next; whenever that (or `next`) changes, and
 * after every answer, it is emptied (or set to `prefill`, selected so Enter takes it and typing replaces it)
 * and focused again. Where the browser offers `BarcodeDetector`, a Camera button reads a code from the camera
 * instead (a quantity is typed).
 */
export function ScanField({
  label,
  numeric = false,
  prefill = "",
  next,
  busy,
  submitLabel,
  onScan,
}: {
  label: string;
  numeric?: boolean;
  prefill?: string;
  /** Anything that means "a new scan starts here" (a new line, units picked). */
  next: unknown;
  busy: boolean;
  submitLabel: string;
  onScan: (code: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [camera, setCamera] = useState(false);
  const prompt = useRef<unknown[]>([]);
  // A layout effect: the field is reset in the same commit that shows the new prompt, so nothing typed for the
  // new prompt is replaced afterwards. While a scan is answered the field is read-only and keeps what was sent,
  // unless the prompt has moved on already.
  useLayoutEffect(() => {
    const field = input.current;
    if (!field) return;
    const moved = prompt.current[0] !== label || prompt.current[1] !== next;
    prompt.current = [label, next];
    if (busy && !moved) return;
    field.value = prefill;
    field.focus();
    field.select();
  }, [label, next, busy]);
  return (
    <form
      class="scan-form"
      onSubmit={(event) => {
        const code = (fieldsOf(event).code ?? "").trim();
        if (code && !busy) onScan(code);
      }}
    >
      <label class="field">
        <span>{label}</span>
        <input
          ref={input}
          name="code"
          class="scan-input"
          autocomplete="off"
          autocapitalize="off"
          spellcheck={false}
          inputMode={numeric ? "numeric" : "text"}
          enterKeyHint="enter"
          readOnly={busy}
        />
      </label>
      <button type="submit" class="button button-primary" disabled={busy}>
        {submitLabel}
      </button>
      {!numeric && cameraOffered() && (
        <button type="button" class="button" disabled={busy || camera} onClick={() => setCamera(true)}>
          Camera
        </button>
      )}
      {camera && (
        <CameraScan
          onCode={(code) => !busy && onScan(code)}
          onClose={() => {
            setCamera(false);
            input.current?.focus();
          }}
        />
      )}
    </form>
  );
}
