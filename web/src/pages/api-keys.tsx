import { useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../api/client";
import { grantableScopes } from "../session/roles";
import { currentRole, useSession } from "../session/session";
import { ConfigNav } from "../ui/config-nav";
import { fieldsOf, useSubmit } from "../ui/form";
import { DialogActions } from "../ui/form-dialog";
import { formatDateTime } from "../ui/format";
import { LoadedList } from "../ui/loaded-list";
import { ConfirmDialog, Modal } from "../ui/modal";
import { ShowOnce } from "../ui/show-once";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";

type ApiKey = Schemas["ApiKey"];

function statusOf(key: ApiKey, now = Date.now()) {
  if (key.revokedAt) return `Revoked ${formatDateTime(key.revokedAt)}`;
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) return "Expired";
  return "Active";
}

export function ApiKeys() {
  useDocumentTitle("API Keys");
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ApiKey | null>(null);
  const [dialog, setDialog] = useState<"generate" | "revoke" | null>(null);
  const keys = useLoad(
    () =>
      unwrap(api.GET("/api/v1/api-keys", { params: { query: { page, pageSize: 20, sort: "-createdAt" } } })),
    [page],
  );
  const revocable = selected && !selected.revokedAt;

  return (
    <>
      <ConfigNav />
      <h1 tabIndex={-1}>API Keys</h1>
      <p>
        Keys let servers call the API without a user. A key is shown once, when it is generated; revoking it
        stops it on its very next request.
      </p>
      <div class="toolbar">
        <button type="button" class="button button-primary" onClick={() => setDialog("generate")}>
          Generate New Key
        </button>
        <button
          type="button"
          class="button button-danger"
          disabled={!revocable}
          onClick={() => setDialog("revoke")}
        >
          Revoke
        </button>
      </div>
      <LoadedList load={keys} empty="No keys yet." onPage={setPage}>
        {(list) => (
          <Table
            label="API keys"
            caption="API keys; select one to revoke it"
            columns={[
              { label: "Select", hidden: true },
              "Name",
              "Prefix",
              "Scopes",
              "Allowed IPs",
              "Last used",
              "Expires",
              "Status",
            ]}
          >
            {list.items.map((key) => (
              <tr key={key.id} class={selected?.id === key.id ? "selected" : undefined}>
                <td>
                  <input
                    type="radio"
                    name="selected-key"
                    aria-label={`Select ${key.name}`}
                    checked={selected?.id === key.id}
                    onChange={() => setSelected(key)}
                  />
                </td>
                <td>{key.name}</td>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>{key.scopes.join(", ")}</td>
                <td>{key.allowedIps?.length ? key.allowedIps.join(", ") : "Any"}</td>
                <td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : "Never"}</td>
                <td>{key.expiresAt ? formatDateTime(key.expiresAt) : "Never"}</td>
                <td>{statusOf(key)}</td>
              </tr>
            ))}
          </Table>
        )}
      </LoadedList>
      {dialog === "generate" && (
        <GenerateKey
          onClose={() => {
            setDialog(null);
            keys.reload();
          }}
        />
      )}
      {dialog === "revoke" && selected && (
        <ConfirmDialog
          title={`Revoke “${selected.name}”?`}
          confirmLabel="Revoke"
          onClose={() => setDialog(null)}
          onConfirm={async () => {
            await unwrap(api.DELETE("/api/v1/api-keys/{id}", { params: { path: { id: selected.id } } }));
            setSelected(null);
            keys.reload();
          }}
        >
          <p>
            Requests with the key <code>{selected.prefix}…</code> fail from now on. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** The form, then the new key shown once. Scopes offered are the ones the user's role holds. */
function GenerateKey({ onClose }: { onClose: () => void }) {
  const role = currentRole(useSession());
  const scopes = role ? grantableScopes(role) : [];
  const [created, setCreated] = useState<Schemas["CreatedApiKey"] | null>(null);
  const submit = useSubmit(async (body: Schemas["CreateApiKeyRequest"]) => {
    setCreated(await unwrap(api.POST("/api/v1/api-keys", { body })));
  });

  if (created) {
    return (
      <Modal title="Your new API key" onClose={onClose}>
        <p>
          <strong>{created.name}</strong>: {created.scopes.join(", ")}
        </p>
        <ShowOnce label="API key" value={created.key} onDone={onClose} />
      </Modal>
    );
  }

  return (
    <Modal title="Generate New Key" onClose={onClose}>
      <form
        onSubmit={(event) => {
          const checked = new FormData(event.currentTarget as HTMLFormElement).getAll("scope");
          const fields = fieldsOf(event);
          const chosen = scopes.filter((scope) => checked.includes(scope));
          const allowedIps = (fields.allowedIps ?? "")
            .split(/[\s,]+/)
            .map((ip) => ip.trim())
            .filter(Boolean);
          const body: Schemas["CreateApiKeyRequest"] = {
            name: (fields.name ?? "").trim(),
            scopes: chosen,
          };
          if (allowedIps.length > 0) body.allowedIps = allowedIps;
          // A date input gives a day: the key works through the end of that day, in UTC.
          if (fields.expiresOn) body.expiresAt = `${fields.expiresOn}T23:59:59.999Z`;
          void submit.run(body);
        }}
      >
        <label class="field">
          <span>Name</span>
          <input name="name" required maxLength={100} autofocus placeholder="ERP sync" />
        </label>
        <fieldset class="field">
          <legend>Scopes</legend>
          {scopes.map((scope) => (
            <label key={scope} class="check">
              <input type="checkbox" name="scope" value={scope} />
              <span>{scope}</span>
            </label>
          ))}
        </fieldset>
        <label class="field">
          <span>Allowed IPs (optional)</span>
          <textarea name="allowedIps" rows={2} placeholder="203.0.113.0/24, 2001:db8::/32" />
          <small class="muted">
            Addresses or CIDR ranges, separated by commas or new lines. Empty: any address.
          </small>
        </label>
        <label class="field">
          <span>Expires on (optional)</span>
          <input name="expiresOn" type="date" />
        </label>
        <DialogActions submit={submit} submitLabel="Generate key" onClose={onClose} />
      </form>
    </Modal>
  );
}
