import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { GS } from "../../../src/gs1/element-string";
import type { ScanPipeline } from "../scan/pipeline";
import { CameraScan, cameraOffered } from "./camera-scan";
import { ErrorMessage } from "./error-message";

/**
 * The floor screens' one field: it keeps the focus, so a keyboard-wedge scanner (its characters, then Enter)
 * drives the screen without a tap. Enter hands what it holds to the screen's scan pipeline and empties it at
 * once, so the next scan can be typed while this one resolves (the pipeline queues it). Its label says what it
 * wants next; when that (or `next`) changes, an untouched field shows `prefill` (selected: Enter takes it, typing
 * replaces it). The focus comes back after every action: a dialog closing (`paused` back to false), a button of
 * the screen, a tap on nothing. Ctrl+] types GS (the group separator of GS1 codes). Where the browser offers
 * `BarcodeDetector`, a Camera button reads a code instead (a quantity is typed).
 */
export function ScanField({
  label,
  numeric = false,
  prefill = "",
  next,
  pipeline,
  submitLabel,
  paused = false,
  allowEmpty = false,
}: {
  label: string;
  numeric?: boolean;
  prefill?: string;
  /** Anything that means "a new scan starts here" (a new line, units picked). */
  next: unknown;
  pipeline: ScanPipeline;
  submitLabel: string;
  /** A dialog of the screen is open: the field waits behind it and takes the focus back when it closes. */
  paused?: boolean;
  /** Enter on an empty field is an answer (an optional value left out). */
  allowEmpty?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [camera, setCamera] = useState(false);
  const shown = useRef("");
  // A layout effect: the field is set in the same commit that shows the new prompt, before anything is typed for it.
  useLayoutEffect(() => {
    const field = input.current;
    if (!field || paused) return;
    if (field.value === "" || field.value === shown.current) {
      field.value = prefill;
      field.select();
    }
    shown.current = prefill;
    field.focus();
  }, [label, next, paused, prefill]);
  // Again after paint: a dialog that just closed gives the focus back to its opener then (Preact runs an unmounted
  // component's passive cleanups after paint, before the new passive effects such as this one).
  useEffect(() => {
    if (!paused) input.current?.focus();
  }, [label, next, paused]);
  const focusBack = () => {
    // A tap on nothing (or on text) leaves the focus nowhere: the scanner's next characters would be lost.
    setTimeout(() => {
      const active = document.activeElement;
      if (!paused && (!active || active === document.body)) input.current?.focus();
    }, 0);
  };
  return (
    <div class="scan-field">
      <form
        class="scan-form"
        onSubmit={(event) => {
          event.preventDefault();
          const field = input.current;
          if (!field) return;
          const typed = field.value;
          if (!typed.trim() && !allowEmpty) return;
          field.value = "";
          shown.current = "";
          pipeline.submit(typed);
          field.focus();
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
            onBlur={focusBack}
            onKeyDown={(event) => {
              if (!(event.ctrlKey && event.key === "]")) return;
              event.preventDefault();
              event.currentTarget.setRangeText(
                GS,
                event.currentTarget.selectionStart ?? 0,
                event.currentTarget.selectionEnd ?? 0,
                "end",
              );
            }}
          />
        </label>
        <button type="submit" class="button button-primary">
          {submitLabel}
        </button>
        {!numeric && cameraOffered() && (
          <button type="button" class="button" disabled={camera} onClick={() => setCamera(true)}>
            Camera
          </button>
        )}
        {camera && (
          <CameraScan
            onCode={(code) => pipeline.submit(code)}
            onClose={() => {
              setCamera(false);
              input.current?.focus();
            }}
          />
        )}
      </form>
      <ScanOutcome pipeline={pipeline} />
    </div>
  );
}

/** Gives the focus back to the screen's scan field after a button of the screen did its work. */
export function focusScanField() {
  document.querySelector<HTMLInputElement>(".scan-input")?.focus();
}

/** What the last scan did: its refusal (and the scans behind it not used), or what it changed; scans waiting. */
function ScanOutcome({ pipeline }: { pipeline: ScanPipeline }) {
  return (
    <>
      {pipeline.waiting > 0 && (
        <p class="scan-waiting" role="status">
          {pipeline.waiting} {pipeline.waiting === 1 ? "scan" : "scans"} in line…
        </p>
      )}
      <ErrorMessage error={pipeline.error} />
      {pipeline.dropped > 0 && (
        <p class="alert alert-error">
          {pipeline.dropped} {pipeline.dropped === 1 ? "scan" : "scans"} after it not used: scan{" "}
          {pipeline.dropped === 1 ? "it" : "them"} again.
        </p>
      )}
      {pipeline.notice && (
        <div class="alert alert-info" role="status">
          <p>{pipeline.notice}</p>
        </div>
      )}
    </>
  );
}
