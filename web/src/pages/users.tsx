import { useState } from "preact/hooks";
import { api, type Schemas, unwrap } from "../api/client";
import { type Role, roles } from "../session/roles";
import { useSession } from "../session/session";
import { ConfigNav } from "../ui/config-nav";
import { type AsRead, replacementOf } from "../ui/edits";
import { ErrorMessage } from "../ui/error-message";
import { useSubmit } from "../ui/form";
import { formatDateTime } from "../ui/format";
import { LoadedList } from "../ui/loaded-list";
import { ConfirmDialog } from "../ui/modal";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";
import { Invitations } from "./invitations";

type User = Schemas["User"];

export function Users() {
  useDocumentTitle("Users");
  const [page, setPage] = useState(1);
  const [removing, setRemoving] = useState<User | null>(null);
  const users = useLoad(
    () => unwrap(api.GET("/api/v1/users", { params: { query: { page, pageSize: 20 } } })),
    [page],
  );
  return (
    <>
      <ConfigNav />
      <h1 tabIndex={-1}>Users</h1>
      <Invitations />
      <section aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        <LoadedList load={users} onPage={setPage}>
          {(list) => (
            <Table
              label="Members"
              columns={["Name", "Email", "Role", "Joined", { label: "Actions", hidden: true }]}
            >
              {list.items.map((user) => (
                <Member
                  key={`${user.id}:${user.role}`}
                  user={user}
                  onChanged={users.reload}
                  onRemove={setRemoving}
                />
              ))}
            </Table>
          )}
        </LoadedList>
      </section>
      {removing && (
        <ConfirmDialog
          title={`Remove ${removing.name} from this tenant?`}
          confirmLabel="Remove"
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await unwrap(api.DELETE("/api/v1/users/{id}", { params: { path: { id: removing.id } } }));
            users.reload();
          }}
        >
          <p>
            {removing.email} loses access to this tenant at once. Their account and other tenants are not
            affected.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** A membership as its PUT takes it back: every field as read. */
const memberAsRead = (u: User): AsRead<Schemas["UpdateUserRequest"]> => ({
  role: u.role,
  merchantId: u.merchantId,
});

/** A member's row: the role is changed in place; the API refuses to demote the last owner (409). */
function Member({
  user,
  onChanged,
  onRemove,
}: {
  user: User;
  onChanged: () => void;
  onRemove: (user: User) => void;
}) {
  const me = useSession().user;
  const [role, setRole] = useState<Role>(user.role);
  const save = useSubmit(async () => {
    // The merchant a member acts for is not on this form: it goes back as read (omitted, the PUT would clear it).
    const body = replacementOf(memberAsRead(user), { role });
    if (body) await unwrap(api.PUT("/api/v1/users/{id}", { params: { path: { id: user.id } }, body }));
    onChanged();
  });
  return (
    <tr>
      <td>
        {user.name}
        {me?.id === user.id && <span class="muted"> (you)</span>}
      </td>
      <td>{user.email}</td>
      <td>
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            void save.run();
          }}
        >
          <select
            aria-label={`Role of ${user.name}`}
            value={role}
            onChange={(event) => setRole(event.currentTarget.value as Role)}
          >
            {roles.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          <button
            type="submit"
            class="button"
            disabled={save.busy || role === user.role}
            aria-label={`Change role of ${user.name}`}
          >
            Change role
          </button>
        </form>
        <ErrorMessage error={save.error} />
      </td>
      <td>{formatDateTime(user.joinedAt)}</td>
      <td>
        <button
          type="button"
          class="button button-danger"
          onClick={() => onRemove(user)}
          aria-label={`Remove ${user.name}`}
        >
          Remove
        </button>
      </td>
    </tr>
  );
}
