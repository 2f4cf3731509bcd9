import ipaddr from "ipaddr.js";
import { AppError } from "../http/errors";

/** Resolves a hostname to its addresses (A and AAAA). Injected, so tests need no network. */
export type Resolver = (hostname: string) => Promise<string[]>;

// Hostnames that name the inside of a network, whatever DNS says about them (no public name ends so: `.home`,
// `.corp` and `.lan` are not delegated; `.arpa` holds reverse-lookup and home-network names, `.svc` Kubernetes').
const INTERNAL_NAMES = /(^|\.)(localhost|localdomain|local|internal|intranet|lan|home|corp|arpa|svc)$/i;
const LOCAL_DEVELOPMENT_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function normalise(address: ipaddr.IPv4 | ipaddr.IPv6) {
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

// IPv6's global unicast space (RFC 4291, 2.4): everything outside it is loopback, unspecified, IPv4-compatible
// (`::a9fe:a9fe` is 169.254.169.254 to a stack that still routes it), IPv4-translated, NAT64 (`64:ff9b::/96`),
// discard, unique local, link-local, site-local, multicast or not allocated.
const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");

/**
 * Whether an address is on the public internet: only global unicast passes. IPv4-mapped IPv6 (`::ffff:a.b.c.d`) is
 * judged as the IPv4 it carries. ipaddr.js names every special range (IPv4: loopback, private, linkLocal with the
 * cloud metadata's 169.254.169.254, carrierGradeNat, multicast, broadcast, reserved with the documentation and
 * benchmarking blocks; IPv6 inside 2000::/3: 6to4, teredo, benchmarking, documentation as reserved, orchid...), and
 * an address is public only when it is in none of them (`unicast`). A tunnel's address (6to4, Teredo) is refused
 * even when the IPv4 it wraps is public: what it reaches is decided by a relay, not by this check.
 * docs/decisions/security.md.
 */
export function isPublicAddress(value: string): boolean {
  if (!ipaddr.isValid(value)) return false;
  const address = normalise(ipaddr.parse(value));
  if (address.kind() === "ipv6" && !(address as ipaddr.IPv6).match(GLOBAL_UNICAST)) return false;
  return address.range() === "unicast";
}

const refuse = (reason: string) =>
  new AppError("VALIDATION_FAILED", "The URL is not allowed", { errors: [`url: ${reason}`] });

// 443 is the https default (the URL parser writes it as no port); 8443 is the common alternative for TLS services.
// Any other port would let a subscription probe services that are not web receivers (Redis on 6379, SSH on 22...).
const ALLOWED_PORTS = new Set(["", "8443"]);

/**
 * The URL as it will be called. The WHATWG parser already lower-cases the host, maps IDNA (fullwidth
 * `ｌｏｃａｌｈｏｓｔ` is `localhost`; Unicode names become punycode), decodes percent-escapes and reads
 * every IPv4 spelling (`0x7f.1`) as an address; trailing dots (`localhost.`, the same name to DNS) are removed here,
 * so each rule below sees the name that is resolved and fetched.
 */
function normalised(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse("must be an absolute URL");
  }
  const host = url.hostname.replace(/\.+$/, "");
  if (host !== url.hostname) {
    url.hostname = host;
    // The setter ignores a name it cannot take (nothing left but dots): refuse rather than judge the old one.
    if (url.hostname !== host) throw refuse("must be a public host name");
  }
  return url;
}

/**
 * The SSRF guard, run when a subscription is saved and again right before every delivery: https only, port 443
 * or 8443, no credentials in the URL, no IP literal or internal hostname, and every address the host resolves to
 * must be public. `allowLocal` (development only) admits http://localhost receivers on any port. Returns the
 * normalised URL, the one to call.
 */
export async function assertDeliverableUrl(
  raw: string,
  options: { allowLocal: boolean; resolve?: Resolver },
): Promise<URL> {
  const url = normalised(raw);
  if (options.allowLocal && url.protocol === "http:" && LOCAL_DEVELOPMENT_HOSTS.has(url.hostname)) return url;
  if (url.protocol !== "https:") throw refuse("must use https://");
  if (url.username || url.password) throw refuse("must not contain credentials");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (ipaddr.isValid(host)) throw refuse("must name a host, not an IP address");
  if (!host.includes(".") || INTERNAL_NAMES.test(host)) throw refuse("must be a public host name");
  if (!ALLOWED_PORTS.has(url.port)) throw refuse("must use port 443 (the default) or 8443");
  if (options.resolve) {
    let addresses: string[];
    try {
      addresses = await options.resolve(host);
    } catch {
      throw refuse(`host ${host} could not be resolved`);
    }
    if (addresses.length === 0) throw refuse(`host ${host} does not resolve`);
    if (!addresses.every(isPublicAddress)) throw refuse(`host ${host} resolves to a non-public address`);
  }
  return url;
}
