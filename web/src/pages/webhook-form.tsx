import { feedTypes } from "../../../src/outbox/catalog";
import type { Schemas } from "../api/client";
import { ErrorMessage } from "../ui/error-message";

export type WebhookFields = Schemas["UpdateWebhookRequest"];

/** URL, description, events (or every event) and, when editing, whether it is active. */
export function WebhookForm({
  initial,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  initial?: Schemas["Webhook"];
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (fields: WebhookFields) => void;
  onCancel?: () => void;
}) {
  const chosen = new Set(initial?.events ?? []);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const checked = form.getAll("event").map(String);
        // The boxes are the catalogue's names: the document types `events` as that enum. Those it had keep their
        // order, so a save that changes nothing sends nothing (src/ui/edits.ts).
        const had = (initial?.events ?? []) as WebhookFields["events"];
        const events = [
          ...had.filter((type) => checked.includes(type)),
          ...feedTypes.filter((type) => checked.includes(type) && !had.includes(type)),
        ];
        onSubmit({
          url: String(form.get("url") ?? "").trim(),
          description: String(form.get("description") ?? "").trim() || undefined,
          events: checked.includes("*") ? ["*"] : events,
          active: initial ? form.get("active") === "on" : true,
        });
      }}
    >
      <label class="field">
        <span>URL</span>
        <input
          name="url"
          type="url"
          required
          maxLength={2048}
          defaultValue={initial?.url}
          placeholder="https://erp.example.com/hooks/warehouse"
        />
      </label>
      <label class="field">
        <span>Description (optional)</span>
        <input name="description" maxLength={500} defaultValue={initial?.description ?? ""} />
      </label>
      <fieldset class="field">
        <legend>Events</legend>
        <label class="check">
          <input type="checkbox" name="event" value="*" defaultChecked={chosen.has("*")} />
          <span>Every event (*)</span>
        </label>
        <div class="check-grid">
          {feedTypes.map((name) => (
            <label key={name} class="check">
              <input type="checkbox" name="event" value={name} defaultChecked={chosen.has(name)} />
              <span>{name}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {initial && (
        <label class="check">
          <input type="checkbox" name="active" defaultChecked={initial.active} />
          <span>Active (deliveries are sent)</span>
        </label>
      )}
      <ErrorMessage error={error} />
      <div class="actions">
        {onCancel && (
          <button type="button" class="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        )}
        <button type="submit" class="button button-primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
