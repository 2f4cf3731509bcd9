import { useState } from "preact/hooks";

/**
 * A secret the API shows once (an API key, a webhook signing secret), with a copy button, a warning and the
 * Done button that closes the dialog it is handed over in.
 */
export function ShowOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <>
      <div class="show-once">
        <p class="alert alert-warning" role="note">
          Copy it now: it will not be shown again.
        </p>
        <label class="field">
          <span>{label}</span>
          <input class="secret" readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
        </label>
        <button type="button" class="button" onClick={copy}>
          Copy
        </button>
        <span class="copy-status" role="status">
          {copied === "yes"
            ? "Copied to the clipboard."
            : copied === "failed"
              ? "Select the text and copy it."
              : ""}
        </span>
      </div>
      <div class="actions">
        <button type="button" class="button button-primary" onClick={onDone}>
          Done
        </button>
      </div>
    </>
  );
}
