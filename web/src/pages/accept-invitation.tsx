import { useLocation } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { acceptInvitation, rejoin, type SessionState, signOut } from "../session/session";
import { ErrorMessage } from "../ui/error-message";
import { fieldsOf, useSubmit } from "../ui/form";
import { Loaded } from "../ui/loaded";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";
import { SignInForm } from "./sign-in";

type Preview = Schemas["InvitationPreview"];

/**
 * The page an invitation mail links to (`/app/accept-invitation?token=...`), signed in or not. A new person
 * chooses a name and password; an existing account signs in as the invited email and accepts with the token.
 */
export function AcceptInvitation({ session }: { session: SessionState }) {
  useDocumentTitle("Accept invitation");
  const { query } = useLocation();
  const token = query.token ?? "";
  const preview = useLoad(
    () => unwrap(api.POST("/api/v1/auth/invitations/inspect", { body: { token } })),
    [token],
  );
  return (
    <main id="main" class="card narrow">
      <h1 tabIndex={-1}>Accept invitation</h1>
      {token ? (
        <Loaded load={preview}>
          {(invitation) => (
            <>
              <p>
                <strong>{invitation.email}</strong> is invited to join{" "}
                <strong>{invitation.tenantName}</strong> as <strong>{invitation.role}</strong>.
              </p>
              {invitation.accountExists ? (
                <ExistingAccount invitation={invitation} token={token} session={session} />
              ) : (
                <NewAccount token={token} />
              )}
            </>
          )}
        </Loaded>
      ) : (
        <ErrorMessage error="This link has no invitation token. Open the link from the invitation mail." />
      )}
    </main>
  );
}

function NewAccount({ token }: { token: string }) {
  const { route } = useLocation();
  const submit = useSubmit(async (name: string, password: string) => {
    await acceptInvitation(token, name, password);
    route("/app/");
  });
  return (
    <form
      onSubmit={(event) => {
        const { name = "", password = "" } = fieldsOf(event);
        void submit.run(name.trim(), password);
      }}
    >
      <label class="field">
        <span>Name</span>
        <input name="name" autocomplete="name" required autofocus />
      </label>
      <label class="field">
        <span>Password</span>
        <input name="password" type="password" autocomplete="new-password" required />
      </label>
      <ErrorMessage error={submit.error} />
      <button type="submit" class="button button-primary" disabled={submit.busy}>
        Accept invitation
      </button>
    </form>
  );
}

function ExistingAccount({
  invitation,
  token,
  session,
}: {
  invitation: Preview;
  token: string;
  session: SessionState;
}) {
  const { route } = useLocation();
  const submit = useSubmit(async () => {
    const joined = await unwrap(api.POST("/api/v1/auth/invitations/accept", { body: { token } }));
    if ("tenantId" in joined) await rejoin(joined.tenantId);
    route("/app/");
  });
  const user = session.user;
  if (!user) {
    return (
      <>
        <p>This email already has an account. Sign in to accept.</p>
        <SignInForm email={invitation.email} />
      </>
    );
  }
  if (user.email.toLowerCase() !== invitation.email.toLowerCase()) {
    return (
      <>
        <p class="alert alert-info" role="status">
          You are signed in as {user.email}. Sign out, then sign in as {invitation.email} to accept.
        </p>
        <button type="button" class="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </>
    );
  }
  return (
    <>
      <ErrorMessage error={submit.error} />
      <button
        type="button"
        class="button button-primary"
        disabled={submit.busy}
        onClick={() => void submit.run()}
      >
        Accept invitation
      </button>
    </>
  );
}
