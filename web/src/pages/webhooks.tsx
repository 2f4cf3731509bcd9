import { useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../api/client";
import { ConfigNav } from "../ui/config-nav";
import { useSubmit } from "../ui/form";
import { formatDateTime } from "../ui/format";
import { LoadedList } from "../ui/loaded-list";
import { Modal } from "../ui/modal";
import { ShowOnce } from "../ui/show-once";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";
import { type WebhookFields, WebhookForm } from "./webhook-form";

export function webhookStatus(webhook: Schemas["Webhook"]) {
  if (!webhook.active) return webhook.disabledReason ? `Disabled: ${webhook.disabledReason}` : "Paused";
  if (webhook.failingSince) return `Failing since ${formatDateTime(webhook.failingSince)}`;
  return "Active";
}

export function Webhooks() {
  useDocumentTitle("Webhooks");
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const webhooks = useLoad(
    () => unwrap(api.GET("/api/v1/webhooks", { params: { query: { page, pageSize: 20 } } })),
    [page],
  );
  return (
    <>
      <ConfigNav />
      <h1 tabIndex={-1}>Webhooks</h1>
      <p>
        Each subscription receives the events it names as signed POST requests (Standard Webhooks). Select one
        to edit it, send a test, rotate its secret or see its deliveries.
      </p>
      <div class="toolbar">
        <button type="button" class="button button-primary" onClick={() => setCreating(true)}>
          Add webhook
        </button>
      </div>
      <LoadedList load={webhooks} empty="No webhooks yet." onPage={setPage}>
        {(list) => (
          <Table label="Webhooks" columns={["URL", "Events", "Status", "Created"]}>
            {list.items.map((webhook) => (
              <tr key={webhook.id}>
                <td>
                  <a href={`/app/configuration/webhooks/${webhook.id}`}>{webhook.url}</a>
                  {webhook.description && <div class="muted">{webhook.description}</div>}
                </td>
                <td>{webhook.events.join(", ")}</td>
                <td>{webhookStatus(webhook)}</td>
                <td>{formatDateTime(webhook.createdAt)}</td>
              </tr>
            ))}
          </Table>
        )}
      </LoadedList>
      {creating && (
        <CreateWebhook
          onClose={() => {
            setCreating(false);
            webhooks.reload();
          }}
        />
      )}
    </>
  );
}

function CreateWebhook({ onClose }: { onClose: () => void }) {
  const [created, setCreated] = useState<Schemas["WebhookWithSecret"] | null>(null);
  const submit = useSubmit(async ({ active: _active, ...body }: WebhookFields) => {
    setCreated(await unwrap(api.POST("/api/v1/webhooks", { body })));
  });
  if (created) {
    return (
      <Modal title="Webhook created" onClose={onClose}>
        <p>
          Verify each delivery's <code>webhook-signature</code> with this secret.
        </p>
        <ShowOnce label="Signing secret" value={created.secret} onDone={onClose} />
      </Modal>
    );
  }
  return (
    <Modal title="Add webhook" onClose={onClose}>
      <WebhookForm
        submitLabel="Create webhook"
        busy={submit.busy}
        error={submit.error}
        onSubmit={submit.run}
        onCancel={onClose}
      />
    </Modal>
  );
}
