/** A loading indicator that screen readers announce. */
export function Spinner({ label = "Loading…" }: { label?: string }) {
  return (
    <div class="spinner" role="status" aria-live="polite">
      <span class="spinner-wheel" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
