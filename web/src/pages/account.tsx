import { useState } from "preact/hooks";
import { api, unwrap } from "../api/client";
import { useSession } from "../session/session";
import { ErrorMessage } from "../ui/error-message";
import { fieldsOf, useSubmit } from "../ui/form";
import { useDocumentTitle } from "../ui/title";

/** The signed-in person's own account: who they are, and a password change that ends their other sessions. */
export function Account() {
  useDocumentTitle("Your account");
  const user = useSession().user;
  const [changed, setChanged] = useState<number | null>(null);
  const submit = useSubmit(async (currentPassword: string, newPassword: string, form: HTMLFormElement) => {
    const result = await unwrap(
      api.POST("/api/v1/auth/password", { body: { currentPassword, newPassword } }),
    );
    setChanged(result.otherSessionsRevoked);
    form.reset();
  });
  return (
    <>
      <h1 tabIndex={-1}>Your account</h1>
      <p>
        {user?.name} ({user?.email})
      </p>
      <section aria-labelledby="password-heading" class="card narrow">
        <h2 id="password-heading">Change password</h2>
        <form
          onSubmit={(event) => {
            const { currentPassword = "", newPassword = "" } = fieldsOf(event);
            setChanged(null);
            void submit.run(currentPassword, newPassword, event.currentTarget as HTMLFormElement);
          }}
        >
          <label class="field">
            <span>Current password</span>
            <input name="currentPassword" type="password" autocomplete="current-password" required />
          </label>
          <label class="field">
            <span>New password</span>
            <input name="newPassword" type="password" autocomplete="new-password" required />
          </label>
          <ErrorMessage error={submit.error} />
          {changed !== null && (
            <p class="alert alert-info" role="status">
              Password changed. {changed === 1 ? "1 other session was" : `${changed} other sessions were`}{" "}
              signed out; this one stays signed in.
            </p>
          )}
          <button type="submit" class="button button-primary" disabled={submit.busy}>
            Change password
          </button>
        </form>
      </section>
    </>
  );
}
