const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const money = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 4 });

export const formatDateTime = (iso: string | null | undefined) =>
  iso ? dateTime.format(new Date(iso)) : "—";
export const formatInteger = (value: number) => integer.format(value);
/** An amount, from a number or (exactly, however large) from an API `...Exact` decimal string. */
export const formatMoney = (value: number | string | null | undefined) =>
  value == null ? "—" : money.format(value as number | Intl.StringNumericLiteral);

const inCurrency = new Map<string, Intl.NumberFormat>();
/** An amount in an ISO 4217 currency (`€1,234.50`), exact from a `...Exact` decimal string, up to 4 decimals. */
export function formatCurrency(value: number | string, currency: string) {
  let format = inCurrency.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { style: "currency", currency, maximumFractionDigits: 4 });
    inCurrency.set(currency, format);
  }
  return format.format(value as number | Intl.StringNumericLiteral);
}

/** `YYYY-MM-DD` of the UTC day `daysAgo` days before today (reports count days in UTC). */
export function utcDay(daysAgo = 0, now = new Date()): string {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysAgo));
  return day.toISOString().slice(0, 10);
}

/** A status or other API enum as words: `partially_shipped` -> `partially shipped`. */
export const statusLabel = (status: string) => status.replaceAll("_", " ");
