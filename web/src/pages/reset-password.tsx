import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, unwrap } from "../api/client";
import { type SessionState, signOut } from "../session/session";
import { ErrorMessage } from "../ui/error-message";
import { fieldsOf, useSubmit } from "../ui/form";
import { useDocumentTitle } from "../ui/title";

/** The page a reset mail links to (`/app/reset-password?token=...`): a new password, then sign in with it. */
export function ResetPassword({ session }: { session: SessionState }) {
  useDocumentTitle("Choose a new password");
  const { query } = useLocation();
  const token = query.token ?? "";
  const [doneFor, setDoneFor] = useState<string | null>(null);
  const submit = useSubmit(async (password: string) => {
    const reset = await unwrap(
      api.POST("/api/v1/auth/password-reset/confirm", { body: { token, password } }),
    );
    // Every login of the account has just ended, this tab's included.
    if (session.user) await signOut();
    setDoneFor(reset.email);
  });
  return (
    <main id="main" class="card narrow">
      <h1 tabIndex={-1}>Choose a new password</h1>
      {!token ? (
        <ErrorMessage error="This link has no reset token. Open the link from the mail, or ask for a new one." />
      ) : doneFor ? (
        <p class="alert alert-info" role="status">
          The password of {doneFor} is set. Every session was signed out. <a href="/app/">Sign in</a>
        </p>
      ) : (
        <form
          onSubmit={(event) => {
            const { password = "" } = fieldsOf(event);
            void submit.run(password);
          }}
        >
          <label class="field">
            <span>New password</span>
            <input name="password" type="password" autocomplete="new-password" required autofocus />
          </label>
          <ErrorMessage error={submit.error} />
          <button type="submit" class="button button-primary" disabled={submit.busy}>
            Set password
          </button>
        </form>
      )}
      {!doneFor && (
        <p>
          <a href="/app/forgot-password">Ask for a new link</a>
        </p>
      )}
    </main>
  );
}
