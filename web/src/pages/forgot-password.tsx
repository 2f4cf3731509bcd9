import { useState } from "preact/hooks";
import { api, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { fieldsOf, useSubmit } from "../ui/form";
import { useDocumentTitle } from "../ui/title";

/** Asks for a reset link. The API answers the same for any email, so the page cannot say more either. */
export function ForgotPassword() {
  useDocumentTitle("Reset your password");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const submit = useSubmit(async (email: string) => {
    await unwrap(api.POST("/api/v1/auth/password-reset", { body: { email } }));
    setSentTo(email);
  });
  return (
    <main id="main" class="card narrow">
      <h1 tabIndex={-1}>Reset your password</h1>
      {sentTo ? (
        <p class="alert alert-info" role="status">
          If {sentTo} has an account, a link to choose a new password is on its way. It works once, for one
          hour.
        </p>
      ) : (
        <form
          onSubmit={(event) => {
            const { email = "" } = fieldsOf(event);
            void submit.run(email.trim());
          }}
        >
          <label class="field">
            <span>Email</span>
            <input name="email" type="email" autocomplete="username" required autofocus />
          </label>
          <ErrorMessage error={submit.error} />
          <button type="submit" class="button button-primary" disabled={submit.busy}>
            Send reset link
          </button>
        </form>
      )}
      <p>
        <a href="/app/">Back to sign in</a>
      </p>
    </main>
  );
}
