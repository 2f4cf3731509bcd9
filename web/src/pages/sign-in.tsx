import { signIn } from "../session/session";
import { ErrorMessage } from "../ui/error-message";
import { fieldsOf, useSubmit } from "../ui/form";
import { useDocumentTitle } from "../ui/title";

export function SignIn({ notice }: { notice: string | null }) {
  useDocumentTitle("Sign in");
  return (
    <main id="main" class="card narrow">
      <h1>Sign in</h1>
      {notice && (
        <p class="alert alert-info" role="status">
          {notice}
        </p>
      )}
      <SignInForm />
      <p>
        <a href="/app/forgot-password">Forgot your password?</a>
      </p>
    </main>
  );
}

/** Email and password; also on the invitation page, where an existing account signs in to accept. */
export function SignInForm({ email: knownEmail }: { email?: string }) {
  const submit = useSubmit((email: string, password: string) => signIn(email, password));
  return (
    <form
      onSubmit={(event) => {
        const { email = "", password = "" } = fieldsOf(event);
        void submit.run(email.trim(), password);
      }}
    >
      <label class="field">
        <span>Email</span>
        <input
          name="email"
          type="email"
          autocomplete="username"
          required
          autofocus={!knownEmail}
          value={knownEmail}
          readOnly={knownEmail !== undefined}
        />
      </label>
      <label class="field">
        <span>Password</span>
        <input
          name="password"
          type="password"
          autocomplete="current-password"
          required
          autofocus={knownEmail !== undefined}
        />
      </label>
      <ErrorMessage error={submit.error} />
      <button type="submit" class="button button-primary" disabled={submit.busy}>
        Sign in
      </button>
    </form>
  );
}
