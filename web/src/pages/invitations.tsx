import { useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../api/client";
import { roles } from "../session/roles";
import { ErrorMessage } from "../ui/error-message";
import { fieldsOf, useSubmit } from "../ui/form";
import { formatDateTime } from "../ui/format";
import { LoadedList } from "../ui/loaded-list";
import { ConfirmDialog } from "../ui/modal";
import { choicesOf, SelectField } from "../ui/select-field";
import { Table } from "../ui/table";
import { useLoad } from "../ui/use-load";

type Invitation = Schemas["Invitation"];
type Role = Invitation["role"];

/**
 * Inviting by email: the API mails a one-time link to that address and answers the same whether or not the
 * person has an account, so this page can say only that the mail went out.
 */
export function Invitations() {
  const [page, setPage] = useState(1);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const invitations = useLoad(
    () =>
      unwrap(
        api.GET("/api/v1/users/invitations", {
          params: { query: { page, pageSize: 20, status: "pending" } },
        }),
      ),
    [page],
  );
  const invite = useSubmit(async (email: string, role: Role, form: HTMLFormElement) => {
    const invitation = await unwrap(api.POST("/api/v1/users", { body: { email, role } }));
    setSentTo(invitation.email);
    form.reset();
    invitations.reload();
  });
  return (
    <>
      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite a user</h2>
        <form
          class="inline-form"
          onSubmit={(event) => {
            const { email = "", role = "viewer" } = fieldsOf(event);
            setSentTo(null);
            void invite.run(email.trim(), role as Role, event.currentTarget as HTMLFormElement);
          }}
        >
          <label class="field">
            <span>Email</span>
            <input name="email" type="email" autocomplete="off" required />
          </label>
          <SelectField label="Role" name="role" choices={choicesOf(roles)} initial="viewer" />
          <button type="submit" class="button button-primary" disabled={invite.busy}>
            Invite
          </button>
        </form>
        <ErrorMessage error={invite.error} />
        {sentTo && (
          <p class="alert alert-info" role="status">
            An invitation was mailed to {sentTo}. The link in it works once and expires in a few days.
          </p>
        )}
      </section>
      <section aria-labelledby="invitations-heading">
        <h2 id="invitations-heading">Pending invitations</h2>
        <LoadedList load={invitations} empty="No pending invitations." onPage={setPage}>
          {(list) => (
            <Table
              label="Invitation list"
              columns={["Email", "Role", "Sent", "Expires", { label: "Actions", hidden: true }]}
            >
              {list.items.map((invitation) => (
                <tr key={invitation.id}>
                  <td>{invitation.email}</td>
                  <td>{invitation.role}</td>
                  <td>{formatDateTime(invitation.createdAt)}</td>
                  <td>{formatDateTime(invitation.expiresAt)}</td>
                  <td>
                    <button
                      type="button"
                      class="button button-danger"
                      onClick={() => setRevoking(invitation)}
                      aria-label={`Revoke the invitation of ${invitation.email}`}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </LoadedList>
      </section>
      {revoking && (
        <ConfirmDialog
          title={`Revoke the invitation of ${revoking.email}?`}
          confirmLabel="Revoke"
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await unwrap(
              api.DELETE("/api/v1/users/invitations/{id}", { params: { path: { id: revoking.id } } }),
            );
            invitations.reload();
          }}
        >
          <p>The link in the mail stops working at once. You can invite the address again later.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
