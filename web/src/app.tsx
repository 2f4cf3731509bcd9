import { useEffect } from "preact/hooks";
import { LocationProvider, Route, Router, useLocation } from "preact-iso";
import { WaitingBadge } from "./offline/waiting-badge";
import { AcceptInvitation } from "./pages/accept-invitation";
import { Account } from "./pages/account";
import { ApiKeys } from "./pages/api-keys";
import { Charges } from "./pages/charges";
import { Configuration } from "./pages/configuration";
import { CountPage } from "./pages/count";
import { Counts } from "./pages/counts";
import { Dashboard } from "./pages/dashboard";
import { Events } from "./pages/events";
import { FloorCount } from "./pages/floor-count";
import { ForgotPassword } from "./pages/forgot-password";
import { Holds } from "./pages/holds";
import { InvoicePage } from "./pages/invoice";
import { Invoices } from "./pages/invoices";
import { JobPage } from "./pages/job";
import { Jobs } from "./pages/jobs";
import { Lots } from "./pages/lots";
import { Merchants } from "./pages/merchants";
import { Movements } from "./pages/movements";
import { NotFound } from "./pages/not-found";
import { OrderPage } from "./pages/order";
import { Orders } from "./pages/orders";
import { Pack } from "./pages/pack";
import { Pick } from "./pages/pick";
import { PickListPage } from "./pages/pick-list";
import { PickLists } from "./pages/pick-lists";
import { Product } from "./pages/product";
import { Products } from "./pages/products";
import { RateCards } from "./pages/rate-cards";
import { Receive } from "./pages/receive";
import { Reports } from "./pages/reports";
import { ResetPassword } from "./pages/reset-password";
import { ReturnPage } from "./pages/return";
import { Returns } from "./pages/returns";
import { ShipmentPage } from "./pages/shipment";
import { Shipments } from "./pages/shipments";
import { SignIn } from "./pages/sign-in";
import { Stock } from "./pages/stock";
import { TenantPicker } from "./pages/tenant-picker";
import { Users } from "./pages/users";
import { Waiting } from "./pages/waiting";
import { Warehouses } from "./pages/warehouses";
import { Webhook } from "./pages/webhook";
import { Webhooks } from "./pages/webhooks";
import { canBill, isAdmin } from "./session/roles";
import { chooseTenant, currentRole, type SessionState, signOut, useSession } from "./session/session";
import { MainNav, type NavGroup } from "./ui/main-nav";
import { Spinner } from "./ui/spinner";

export function App() {
  const session = useSession();
  return (
    <LocationProvider scope="/app/">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <Screen session={session} />
    </LocationProvider>
  );
}

// Pages a mail links to work signed in or not; every other page needs a session and a chosen tenant.
function Screen({ session }: { session: SessionState }) {
  const { path } = useLocation();
  if (path === "/app/accept-invitation") return <AcceptInvitation session={session} />;
  if (path === "/app/reset-password") return <ResetPassword session={session} />;
  if (path === "/app/forgot-password") return <ForgotPassword />;
  if (session.restoring)
    return (
      <main id="main" class="content">
        <Spinner label="Signing in…" />
      </main>
    );
  if (!session.user) return <SignIn notice={session.notice} />;
  if (!session.tenantId) return <TenantPicker session={session} />;
  return <SignedIn session={session} />;
}

function SignedIn({ session }: { session: SessionState }) {
  const { path } = useLocation();
  const admin = isAdmin(currentRole(session));
  const billing = canBill(currentRole(session));
  const memberships = session.user?.memberships ?? [];

  // A new page: move focus to its heading, so keyboard and screen reader users start at the new content (as a
  // full page load would).
  useEffect(() => {
    document.querySelector<HTMLElement>("main h1")?.focus();
  }, [path]);

  const groups: NavGroup[] = [
    {
      label: "Office",
      links: [
        { href: "/app/stock", label: "Stock" },
        { href: "/app/orders", label: "Orders" },
        { href: "/app/pick-lists", label: "Pick lists" },
        { href: "/app/shipments", label: "Shipments" },
        { href: "/app/returns", label: "Returns" },
        { href: "/app/products", label: "Products" },
        { href: "/app/movements", label: "Movements" },
        { href: "/app/counts", label: "Counts" },
        { href: "/app/lots", label: "Lots" },
        { href: "/app/holds", label: "Holds" },
        { href: "/app/jobs", label: "Jobs" },
        { href: "/app/reports", label: "Reports" },
        { href: "/app/events", label: "Events" },
      ],
    },
    {
      label: "Floor",
      links: [
        { href: "/app/pick", label: "Pick" },
        { href: "/app/pack", label: "Pack" },
        { href: "/app/receive", label: "Receive" },
        { href: "/app/count", label: "Count" },
      ],
    },
    {
      label: "3PL",
      links: [
        { href: "/app/merchants", label: "Merchants" },
        ...(billing ? [{ href: "/app/billing/invoices", label: "Billing", section: "/app/billing" }] : []),
      ],
    },
    {
      label: "Configuration",
      links: [
        { href: "/app/warehouses", label: "Warehouses" },
        ...(admin
          ? [
              // The tenant's settings (its currency) and the section's overview.
              { href: "/app/configuration", label: "Settings", exact: true },
              { href: "/app/configuration/api-keys", label: "API Keys" },
              { href: "/app/configuration/users", label: "Users" },
              { href: "/app/configuration/webhooks", label: "Webhooks" },
            ]
          : []),
      ],
    },
  ];

  return (
    <div class="layout">
      <header class="topbar">
        <a class="brand" href="/app/">
          Warehouse
        </a>
        <WaitingBadge session={session} />
        <MainNav
          home={{ href: "/app/", label: "Dashboard", exact: true }}
          groups={groups}
          controls={
            <>
              {memberships.length > 1 ? (
                <label class="tenant-switch">
                  <span class="visually-hidden">Tenant</span>
                  <select
                    value={session.tenantId ?? ""}
                    onChange={(event) => chooseTenant(event.currentTarget.value)}
                  >
                    {memberships.map((m) => (
                      <option key={m.tenantId} value={m.tenantId}>
                        {m.tenantName}
                      </option>
                    ))}
                  </select>
                </label>
              ) : (
                <span class="tenant-name">{memberships[0]?.tenantName}</span>
              )}
              <a href="/app/account">
                {session.user?.name}
                <span class="visually-hidden"> (your account)</span>
              </a>
              <a href="/api/v1/docs">API reference</a>
              <button type="button" class="button" onClick={() => void signOut()}>
                Sign out
              </button>
            </>
          }
        />
      </header>
      <main id="main" class="content">
        <Router key={session.tenantId}>
          <Route path="/app/" component={Dashboard} />
          <Route path="/app/account" component={Account} />
          <Route path="/app/products" component={Products} />
          <Route path="/app/products/:id" component={Product} />
          <Route path="/app/stock" component={Stock} />
          <Route path="/app/orders" component={Orders} />
          <Route path="/app/orders/:id" component={OrderPage} />
          <Route path="/app/pick-lists" component={PickLists} />
          <Route path="/app/pick-lists/:id" component={PickListPage} />
          <Route path="/app/pick" component={Pick} />
          <Route path="/app/pick/:id" component={Pick} />
          <Route path="/app/pack" component={Pack} />
          <Route path="/app/pack/:id" component={Pack} />
          <Route path="/app/shipments" component={Shipments} />
          <Route path="/app/shipments/:id" component={ShipmentPage} />
          <Route path="/app/receive" component={Receive} />
          <Route path="/app/receive/:id" component={Receive} />
          <Route path="/app/count" component={FloorCount} />
          <Route path="/app/count/:id" component={FloorCount} />
          <Route path="/app/waiting" component={Waiting} />
          <Route path="/app/returns" component={Returns} />
          <Route path="/app/returns/:id" component={ReturnPage} />
          <Route path="/app/movements" component={Movements} />
          <Route path="/app/counts" component={Counts} />
          <Route path="/app/counts/:id" component={CountPage} />
          <Route path="/app/lots" component={Lots} />
          <Route path="/app/holds" component={Holds} />
          <Route path="/app/warehouses" component={Warehouses} />
          <Route path="/app/merchants" component={Merchants} />
          <Route path="/app/billing/invoices" component={billing ? Invoices : NotFound} />
          <Route path="/app/billing/invoices/:id" component={billing ? InvoicePage : NotFound} />
          <Route path="/app/billing/charges" component={billing ? Charges : NotFound} />
          <Route path="/app/billing/rate-cards" component={billing ? RateCards : NotFound} />
          <Route path="/app/jobs" component={Jobs} />
          <Route path="/app/jobs/:id" component={JobPage} />
          <Route path="/app/reports" component={Reports} />
          <Route path="/app/events" component={Events} />
          <Route path="/app/configuration" component={admin ? Configuration : NotFound} />
          <Route path="/app/configuration/api-keys" component={admin ? ApiKeys : NotFound} />
          <Route path="/app/configuration/users" component={admin ? Users : NotFound} />
          <Route path="/app/configuration/webhooks" component={admin ? Webhooks : NotFound} />
          <Route path="/app/configuration/webhooks/:id" component={admin ? Webhook : NotFound} />
          <Route default component={NotFound} />
        </Router>
      </main>
    </div>
  );
}
