import ipaddr from "ipaddr.js";

/** Whether a CIDR (or single address) is well formed, IPv4 or IPv6. */
export function isValidCidr(value: string): boolean {
  try {
    if (value.includes("/")) ipaddr.parseCIDR(value);
    else ipaddr.parse(value);
    return true;
  } catch {
    return false;
  }
}

function normalise(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  // An IPv4 client seen through an IPv6 socket (::ffff:a.b.c.d) matches IPv4 ranges.
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

/** Whether `ip` falls inside any entry of the allow list. An unparsable ip is never allowed. */
export function ipAllowed(ip: string | undefined, allowList: readonly string[]): boolean {
  if (!ip) return false;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = normalise(ipaddr.parse(ip));
  } catch {
    return false;
  }
  return allowList.some((entry) => {
    const [range, bits] = entry.includes("/")
      ? ipaddr.parseCIDR(entry)
      : ([ipaddr.parse(entry), entry.includes(":") ? 128 : 32] as const);
    const base = normalise(range);
    const prefix = base.kind() === range.kind() ? bits : bits - 96;
    return address.kind() === base.kind() && address.match(base, prefix);
  });
}
