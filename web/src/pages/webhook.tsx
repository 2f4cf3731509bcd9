import { useEffect, useState } from "preact/hooks";
import { useLocation, useRoute } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { ConfigNav } from "../ui/config-nav";
import { type AsRead, replacementOf } from "../ui/edits";
import { ErrorMessage } from "../ui/error-message";
import { useSubmit } from "../ui/form";
import { formatDateTime } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { LoadedList } from "../ui/loaded-list";
import { ConfirmDialog, Modal } from "../ui/modal";
import { ShowOnce } from "../ui/show-once";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";
import { type WebhookFields, WebhookForm } from "./webhook-form";
import { webhookStatus } from "./webhooks";

type Dialog = "rotate" | "delete" | { secret: string } | null;

/** A subscription as its PUT takes it back: every field as read. */
const webhookAsRead = (w: Schemas["Webhook"]): AsRead<WebhookFields> => ({
  url: w.url,
  events: w.events as WebhookFields["events"],
  description: w.description ?? undefined,
  active: w.active,
});

/** One subscription: edit it, send a test, rotate its secret, delete it, and its deliveries with every attempt. */
export function Webhook() {
  const { params } = useRoute();
  const { route } = useLocation();
  const id = params.id ?? "";
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const webhook = useLoad(() => unwrap(api.GET("/api/v1/webhooks/{id}", { params: { path: { id } } })), [id]);
  const deliveries = useLoad(
    () =>
      unwrap(
        api.GET("/api/v1/webhooks/{id}/deliveries", {
          params: { path: { id }, query: { page, pageSize: 20 } },
        }),
      ),
    [id, page],
  );
  useDocumentTitle(webhook.data ? `Webhook ${webhook.data.url}` : "Webhook");

  // While a delivery is under way, look again every few seconds: attempts happen in the background.
  const underWay = deliveries.data?.items.some((d) => d.status === "pending");
  useEffect(() => {
    if (!underWay) return;
    const timer = setInterval(deliveries.reload, 3000);
    return () => clearInterval(timer);
  }, [underWay, deliveries.reload]);

  const save = useSubmit(async (edited: WebhookFields) => {
    const body = webhook.data && replacementOf(webhookAsRead(webhook.data), edited);
    if (body) await unwrap(api.PUT("/api/v1/webhooks/{id}", { params: { path: { id } }, body }));
    setNotice(body ? "Saved." : "Nothing changed.");
    webhook.reload();
  });
  const test = useSubmit(async () => {
    await unwrap(api.POST("/api/v1/webhooks/{id}/test", { params: { path: { id } } }));
    setNotice("A webhook.test event is on its way.");
    deliveries.reload();
  });

  return (
    <>
      <ConfigNav />
      <p>
        <a href="/app/configuration/webhooks">← Webhooks</a>
      </p>
      <h1 tabIndex={-1}>Webhook</h1>
      {notice && (
        <p class="alert alert-info" role="status">
          {notice}
        </p>
      )}
      <Loaded load={webhook}>
        {(current) => (
          <>
            <p>
              <strong>{current.url}</strong> · {webhookStatus(current)}
            </p>
            <div class="toolbar">
              <button type="button" class="button" onClick={() => void test.run()} disabled={test.busy}>
                Send test
              </button>
              <button type="button" class="button" onClick={() => setDialog("rotate")}>
                Rotate secret
              </button>
              <button type="button" class="button button-danger" onClick={() => setDialog("delete")}>
                Delete
              </button>
            </div>
            <ErrorMessage error={test.error} />
            <section aria-labelledby="edit-heading">
              <h2 id="edit-heading">Settings</h2>
              <WebhookForm
                key={current.updatedAt}
                initial={current}
                submitLabel="Save"
                busy={save.busy}
                error={save.error}
                onSubmit={(fields) => {
                  setNotice(null);
                  void save.run(fields);
                }}
              />
            </section>
          </>
        )}
      </Loaded>
      <section aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading">Deliveries</h2>
        <div class="toolbar">
          <button type="button" class="button" onClick={deliveries.reload}>
            Refresh
          </button>
        </div>
        <LoadedList load={deliveries} empty="No deliveries yet." onPage={setPage}>
          {(list) => (
            <ul class="deliveries">
              {list.items.map((delivery) => (
                <Delivery
                  key={delivery.id}
                  webhookId={id}
                  delivery={delivery}
                  onRetried={deliveries.reload}
                />
              ))}
            </ul>
          )}
        </LoadedList>
      </section>
      {dialog === "rotate" && (
        <ConfirmDialog
          title="Rotate the signing secret?"
          confirmLabel="Rotate secret"
          onClose={() => setDialog((current) => (current === "rotate" ? null : current))}
          onConfirm={async () => {
            const rotated = await unwrap(
              api.POST("/api/v1/webhooks/{id}/rotate-secret", { params: { path: { id } } }),
            );
            setDialog({ secret: rotated.secret });
          }}
        >
          <p>
            A new secret signs every delivery from now on; the old one also signs for 24 hours, so receivers
            can switch.
          </p>
        </ConfirmDialog>
      )}
      {dialog !== null && typeof dialog === "object" && (
        <Modal title="New signing secret" onClose={() => setDialog(null)}>
          <ShowOnce label="Signing secret" value={dialog.secret} onDone={() => setDialog(null)} />
        </Modal>
      )}
      {dialog === "delete" && (
        <ConfirmDialog
          title="Delete this webhook?"
          confirmLabel="Delete"
          onClose={() => setDialog(null)}
          onConfirm={async () => {
            await unwrap(api.DELETE("/api/v1/webhooks/{id}", { params: { path: { id } } }));
            route("/app/configuration/webhooks");
          }}
        >
          <p>No more events are sent to it, and its delivery log goes with it.</p>
        </ConfirmDialog>
      )}
    </>
  );
}

function Delivery({
  webhookId,
  delivery,
  onRetried,
}: {
  webhookId: string;
  delivery: Schemas["WebhookDelivery"];
  onRetried: () => void;
}) {
  const retry = useSubmit(async () => {
    await unwrap(
      api.POST("/api/v1/webhooks/{id}/deliveries/{deliveryId}/retry", {
        params: { path: { id: webhookId, deliveryId: delivery.id } },
      }),
    );
    onRetried();
  });
  return (
    <li class={`delivery delivery-${delivery.status}`}>
      <div class="delivery-summary">
        <strong>{delivery.eventType}</strong>
        <span class={`badge badge-${delivery.status}`}>{delivery.status}</span>
        <span>
          {delivery.attempts} attempt{delivery.attempts === 1 ? "" : "s"}
          {delivery.lastStatusCode !== null && `, last answered ${delivery.lastStatusCode}`}
        </span>
        <span class="muted">{formatDateTime(delivery.createdAt)}</span>
        {delivery.nextAttemptAt && delivery.status === "pending" && (
          <span class="muted">next attempt {formatDateTime(delivery.nextAttemptAt)}</span>
        )}
        {/* Retry any delivery that is not in flight: a failed one, one waiting for its next attempt, or a resend. */}
        {(delivery.status !== "pending" || delivery.attempts > 0) && (
          <button type="button" class="button" onClick={() => void retry.run()} disabled={retry.busy}>
            Retry
          </button>
        )}
      </div>
      <ErrorMessage error={retry.error} />
      {delivery.attemptLog.length > 0 && (
        <details>
          <summary>Attempts</summary>
          <table>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">When</th>
                <th scope="col">Status</th>
                <th scope="col">Duration</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {delivery.attemptLog.map((attempt, index) => (
                // A retry starts counting attempts again, so the number alone is not unique.
                <tr key={`${index}:${attempt.at}`}>
                  <td>{attempt.attempt}</td>
                  <td>{formatDateTime(attempt.at)}</td>
                  <td>{attempt.statusCode ?? "no answer"}</td>
                  <td>{attempt.durationMs} ms</td>
                  <td>{attempt.error ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </li>
  );
}
