import ipaddr from "ipaddr.js";
import { ipAllowed } from "../auth/ip-allow-list";

/** What a key made with a key takes from its maker: the allow list and the expiry it may not exceed. */
export interface MakerBounds {
  allowedIps: readonly string[] | null;
  expiresAt: string | null;
}

/** The first and last address an allow-list entry (an address or a CIDR range) covers. */
function endsOf(entry: string): [string, string] {
  if (!entry.includes("/")) return [entry, entry];
  const kind = ipaddr.parse(entry.slice(0, entry.indexOf("/"))).kind() === "ipv4" ? ipaddr.IPv4 : ipaddr.IPv6;
  return [kind.networkAddressFromCIDR(entry).toString(), kind.broadcastAddressFromCIDR(entry).toString()];
}

/**
 * Whether every address `entry` covers is in `allowList`, matched as requests are (`ipAllowed`). Two CIDR
 * ranges either nest or are apart, so an entry whose two ends fall in one range of the list lies inside it.
 */
function withinAllowList(entry: string, allowList: readonly string[]): boolean {
  const [first, last] = endsOf(entry);
  return allowList.some((range) => ipAllowed(first, [range]) && ipAllowed(last, [range]));
}

/**
 * A key made with a key is never broader than its maker: without an allow list or an expiry it takes the
 * maker's; with its own, each entry must lie inside the maker's list and the expiry be no later than the maker's.
 * The bounds to store, or one message per way the request goes beyond them.
 */
export function boundedByMaker(
  input: { allowedIps?: string[]; expiresAt?: string },
  maker: MakerBounds,
): { allowedIps: string[] | null; expiresAt: string | null } | { errors: string[] } {
  const allowedIps = input.allowedIps?.length ? input.allowedIps : null;
  const expiresAt = input.expiresAt ? new Date(input.expiresAt).toISOString() : null;
  const makerIps = maker.allowedIps?.length ? maker.allowedIps : null;
  const errors = [
    ...(makerIps && allowedIps
      ? allowedIps.flatMap((entry, i) =>
          withinAllowList(entry, makerIps)
            ? []
            : [`allowedIps[${i}]: ${entry} is not within the allow list of the key making it`],
        )
      : []),
    ...(maker.expiresAt && expiresAt && expiresAt > maker.expiresAt
      ? [`expiresAt: must not be after the expiry of the key making it (${maker.expiresAt})`]
      : []),
  ];
  if (errors.length > 0) return { errors };
  return {
    allowedIps: allowedIps ?? (makerIps ? [...makerIps] : null),
    expiresAt: expiresAt ?? maker.expiresAt,
  };
}
