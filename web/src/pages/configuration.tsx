import { useDocumentTitle } from "../ui/title";
import { CurrencySetting } from "./currency-setting";

/**
 * The tenant's settings an administrator manages (Configuration → Settings), each also an API (see /api/v1/docs),
 * and the section's other pages.
 */
export function Configuration() {
  useDocumentTitle("Settings");
  return (
    <>
      <h1 tabIndex={-1}>Settings</h1>
      <ul class="cards">
        <li class="card">
          <h2>
            <a href="/app/configuration/api-keys">API Keys</a>
          </h2>
          <p>
            Keys for servers and integrations: scopes, allowed IPs, expiry. Generate and revoke them here.
          </p>
        </li>
        <li class="card">
          <h2>
            <a href="/app/configuration/users">Users</a>
          </h2>
          <p>Who belongs to this tenant and with which role.</p>
        </li>
        <li class="card">
          <h2>
            <a href="/app/configuration/webhooks">Webhooks</a>
          </h2>
          <p>Event subscriptions, their signing secrets and every delivery attempt.</p>
        </li>
      </ul>
      <CurrencySetting />
    </>
  );
}
