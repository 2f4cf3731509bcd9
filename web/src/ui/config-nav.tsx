import { SubNav } from "./sub-nav";

/** The Configuration section's own navigation, above each of its pages. */
export const ConfigNav = () => (
  <SubNav
    label="Configuration"
    items={[
      ["/app/configuration/api-keys", "API Keys"],
      ["/app/configuration/users", "Users"],
      ["/app/configuration/webhooks", "Webhooks"],
    ]}
  />
);
