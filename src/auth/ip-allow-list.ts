import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** An allow-list entry, parsed: its range, and the one spelling it is stored and shown in. */
export interface AllowListEntry {
  range: Address;
  prefix: number;
  canonical: string;
}

// IPv4 is taken only as four decimal numbers without leading zeros: `010.0.0.1` is 8.0.0.1 to inet_aton and
// ipaddr.js but 10.0.0.1 to a person and to other parsers, `127.1` and `0x7f.0.0.1` are 127.0.0.1 to some
// and nothing to others. A spelling software reads differently is refused, never guessed.
const FOUR_PART_DECIMAL = /^(?:(?:0|[1-9]\d{0,2})\.){3}(?:0|[1-9]\d{0,2})$/;
const PREFIX = /^(?:0|[1-9]\d{0,2})$/;
const NOT_AN_ADDRESS = "must be an IPv4 or IPv6 address or CIDR range (203.0.113.0/24, 2001:db8::/32)";

/** An IPv4 client seen through an IPv6 socket (::ffff:a.b.c.d) is that IPv4 address. */
function unmapped(address: Address, prefix: number): [Address, number] {
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? [(address as ipaddr.IPv6).toIPv4Address(), prefix - 96]
    : [address, prefix];
}

const bitsOf = (address: Address) => (address.kind() === "ipv4" ? 32 : 128);

const networkOf = (address: Address, prefix: number): Address =>
  address.kind() === "ipv4"
    ? ipaddr.IPv4.networkAddressFromCIDR(`${address}/${prefix}`)
    : ipaddr.IPv6.networkAddressFromCIDR(`${address}/${prefix}`);

const spelled = (address: Address) =>
  address.kind() === "ipv6" ? (address as ipaddr.IPv6).toRFC5952String() : address.toString();

/**
 * Parses an allow-list entry, or says in the API's words why it is refused. IPv6 may be written in any form
 * (the forms are unambiguous) and is stored as RFC 5952 writes it (lower case, zeros compressed); an
 * IPv4-mapped one as its IPv4 address. IPv4 must be canonical already; a range must have no bits set past its
 * prefix (`10.0.0.1/24`: the range 10.0.0.0/24 or the address 10.0.0.1/32?). docs/decisions/security.md.
 */
export function parseAllowListEntry(value: string): AllowListEntry | { refused: string } {
  const [text = "", prefixText, ...rest] = value.split("/");
  if (rest.length > 0 || (prefixText !== undefined && !PREFIX.test(prefixText))) {
    return { refused: NOT_AN_ADDRESS };
  }
  if (text.includes("%")) return { refused: "must not carry an IPv6 zone index (%eth0)" };
  if (!ipaddr.isValid(text)) return { refused: NOT_AN_ADDRESS };
  // An IPv4 address, or the dotted end of an IPv6 one (::ffff:10.0.0.1).
  const dotted = text.slice(text.lastIndexOf(":") + 1);
  if ((!text.includes(":") || dotted.includes(".")) && !FOUR_PART_DECIMAL.test(dotted)) {
    return {
      refused:
        "must write IPv4 as four decimal numbers 0-255 without leading zeros (10.0.0.1): other spellings " +
        "(010.0.0.1, 10.1, 0x0a.0.0.1) are read differently by different software",
    };
  }
  const parsed = ipaddr.parse(text);
  const typedPrefix = prefixText === undefined ? bitsOf(parsed) : Number(prefixText);
  if (typedPrefix > bitsOf(parsed)) return { refused: NOT_AN_ADDRESS };
  const [range, prefix] = unmapped(parsed, typedPrefix);
  if (prefix < 0) return { refused: "must have a prefix of at least /96 for an IPv4-mapped IPv6 range" };
  const network = spelled(networkOf(range, prefix));
  if (network !== spelled(range)) {
    return {
      refused: `has bits set past its /${prefix} prefix: write ${network}/${prefix} for the range, or ${spelled(range)}/${bitsOf(range)} for the one address`,
    };
  }
  const canonical = prefixText === undefined && prefix === bitsOf(range) ? network : `${network}/${prefix}`;
  return { range, prefix, canonical };
}

/** Whether `ip` falls inside any entry of the allow list. An unparsable ip is never allowed. */
export function ipAllowed(ip: string | undefined, allowList: readonly string[]): boolean {
  if (!ip || !ipaddr.isValid(ip)) return false;
  const [address] = unmapped(ipaddr.parse(ip), 0);
  return allowList.some((stored) => {
    // An entry stored before entries were checked for canonical spelling, and ambiguous, admits nobody.
    const entry = parseAllowListEntry(stored);
    return (
      "range" in entry && address.kind() === entry.range.kind() && address.match(entry.range, entry.prefix)
    );
  });
}
