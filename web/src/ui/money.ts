import { useEffect, useState } from "preact/hooks";
import { api, unwrap } from "../api/client";
import { useSession } from "../session/session";
import { formatCurrency, formatMoney } from "./format";

type Amount = number | string | null | undefined;

// The tenant's currency (GET /settings), read once per tenant and page load; the configuration page sets it.
const known = new Map<string, string | null>();
const reading = new Map<string, Promise<string | null>>();
const listeners = new Set<() => void>();

function read(tenantId: string): Promise<string | null> {
  let pending = reading.get(tenantId);
  if (!pending) {
    pending = unwrap(api.GET("/api/v1/settings")).then(
      (settings) => {
        known.set(tenantId, settings.currency);
        return settings.currency;
      },
      () => {
        reading.delete(tenantId); // read again by the next page that asks
        return null;
      },
    );
    reading.set(tenantId, pending);
  }
  return pending;
}

/** After the configuration page saved a new currency: every amount on screen shows it. */
export function tenantCurrencyChanged(tenantId: string, currency: string | null) {
  known.set(tenantId, currency);
  reading.set(tenantId, Promise.resolve(currency));
  for (const listener of listeners) listener();
}

/** The chosen tenant's currency (ISO 4217), or null while it loads or when none is set. */
export function useTenantCurrency(): string | null {
  const { tenantId } = useSession();
  const [, setVersion] = useState(0);
  useEffect(() => {
    const rerender = () => setVersion((n) => n + 1);
    listeners.add(rerender);
    if (tenantId && !known.has(tenantId)) void read(tenantId).then(rerender);
    return () => listeners.delete(rerender);
  }, [tenantId]);
  return tenantId ? (known.get(tenantId) ?? null) : null;
}

/**
 * The formatter of the tenant's amounts (prices, costs, totals, valuation): in its currency once one is set
 * (`€1,234.50`), else a plain amount with two decimals. Billing's amounts carry their own card's currency instead.
 */
export function useMoney(): (value: Amount) => string {
  const currency = useTenantCurrency();
  return (value) => (value == null ? "—" : currency ? formatCurrency(value, currency) : formatMoney(value));
}
