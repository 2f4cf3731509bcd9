import ipaddr from "ipaddr.js";
import { AppError } from "../http/errors";

/** Resolves a hostname to its addresses (A and AAAA). Injected, so tests need no network. */
export type Resolver = (hostname: string) => Promise<string[]>;

// Hostnames that name the inside of a network, whatever DNS says about them.
const INTERNAL_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|corp)$/i;
const LOCAL_DEVELOPMENT_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function normalise(address: ipaddr.IPv4 | ipaddr.IPv6) {
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

/**
 * Whether an address is on the public internet. ipaddr.js names every special range (loopback,
 * private, linkLocal, carrierGradeNat, multicast, reserved, uniqueLocal, 6to4...); only `unicast`
 * is public. IPv4-mapped IPv6 is judged as the IPv4 it carries. 169.254.169.254 (cloud metadata)
 * is link-local.
 */
export function isPublicAddress(value: string): boolean {
  if (!ipaddr.isValid(value)) return false;
  return normalise(ipaddr.parse(value)).range() === "unicast";
}

const refuse = (reason: string) =>
  new AppError("VALIDATION_FAILED", "Webhook URL is not allowed", { errors: [`url: ${reason}`] });

/**
 * The SSRF guard, run when a subscription is saved and again before every delivery: https only,
 * no credentials in the URL, no IP literal or internal hostname, and every address the host
 * resolves to must be public. `allowLocal` (development only) admits http://localhost receivers.
 */
export async function assertDeliverableUrl(
  raw: string,
  options: { allowLocal: boolean; resolve?: Resolver },
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse("must be an absolute URL");
  }
  if (options.allowLocal && url.protocol === "http:" && LOCAL_DEVELOPMENT_HOSTS.has(url.hostname)) return url;
  if (url.protocol !== "https:") throw refuse("must use https://");
  if (url.username || url.password) throw refuse("must not contain credentials");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (ipaddr.isValid(host)) throw refuse("must name a host, not an IP address");
  if (!host.includes(".") || INTERNAL_NAMES.test(host)) throw refuse("must be a public host name");
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
