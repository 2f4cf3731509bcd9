import { useLocation } from "preact-iso";

/** The Configuration section's own navigation, above each of its pages. */
export function ConfigNav() {
  const { path } = useLocation();
  const item = (href: string, label: string) => (
    <li>
      <a href={href} aria-current={path.startsWith(href) ? "page" : undefined}>
        {label}
      </a>
    </li>
  );
  return (
    <nav class="sub-nav" aria-label="Configuration">
      <ul>
        {item("/app/configuration/api-keys", "API Keys")}
        {item("/app/configuration/users", "Users")}
        {item("/app/configuration/webhooks", "Webhooks")}
      </ul>
    </nav>
  );
}
